/**
 * The text of each token of a model input ([CLS] question [SEP] answer, tokenize.ts), to show a value per
 * token over the text it came from. GPT-2 BPE works on bytes: a character of several UTF-8 bytes (é, 中,
 * an emoji) can be split over tokens, so a token alone may not decode to text. Such tokens are joined
 * with the token that completes the character, and the pieces of each part concatenate to exactly the
 * decoded text of that part.
 */
import bpeRanks from 'gpt-tokenizer/bpeRanks/r50k_base';

export type InputPart = 'cls' | 'question' | 'sep' | 'answer';

export interface TokenPiece {
  text: string;
  part: InputPart;
  /** The tokens it covers: positions start … end−1 of the input. */
  start: number;
  end: number;
}

const utf8 = new TextEncoder();

/** A token's bytes; ids outside the vocabulary (special tokens) have none. */
function tokenBytes(id: number): Uint8Array | null {
  const value = bpeRanks[id];
  if (value === undefined) return null;
  return typeof value === 'string' ? utf8.encode(value) : Uint8Array.from(value);
}

/** Which part position t of an input is in, for a question of `questionTokens` ids. */
export function partAt(t: number, questionTokens: number): InputPart {
  if (t === 0) return 'cls';
  if (t <= questionTokens) return 'question';
  return t === questionTokens + 1 ? 'sep' : 'answer';
}

/** The pieces of an input whose question is `questionTokens` ids long (the input may be cut anywhere). */
export function tokenPieces(ids: ArrayLike<number>, questionTokens: number): TokenPiece[] {
  const pieces: TokenPiece[] = [];
  let decoder = new TextDecoder('utf-8');
  let start = -1;
  for (let t = 0; t < ids.length; t++) {
    const part = partAt(t, questionTokens);
    if (part === 'cls' || part === 'sep') {
      pieces.push({ text: part === 'cls' ? '[CLS]' : '[SEP]', part, start: t, end: t + 1 });
      continue;
    }
    if (start < 0) start = t;
    const bytes = tokenBytes(ids[t]);
    const text = bytes ? decoder.decode(bytes, { stream: true }) : `<${ids[t]}>`;
    const lastOfPart = t + 1 === ids.length || partAt(t + 1, questionTokens) !== part;
    // A part cut inside a character ends in U+FFFD, as a decoder shows it.
    const tail = lastOfPart ? decoder.decode() : '';
    if (text + tail === '' && !lastOfPart) continue;
    pieces.push({ text: text + tail, part, start, end: t + 1 });
    start = -1;
    if (lastOfPart) decoder = new TextDecoder('utf-8');
  }
  return pieces;
}
