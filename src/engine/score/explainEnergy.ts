/**
 * "Why this energy?": what each piece of a candidate's answer does to its energy, measured by deleting
 * it. A piece's delta is energy(the text without the piece's characters) − energy(the candidate): the
 * reduced text (of what the model read, when the input was cut at maxLen) is tokenized again as training
 * reads it ([CLS] question [SEP] answer, cut at maxLen) and
 * scored by the same model through the ordinary scoring path (scoring.ts), all variants batched. Deltas
 * come at two grains: the answer's steps (its lines and sentences, data/answers/answerSteps.ts), and its tokens,
 * of the whole answer when it is short, else of the step whose removal lowers the energy most (the step
 * the verifier distrusts most).
 * Unlike a gradient at the input, a deletion sees what the model does with a piece whatever its layers
 * normalise away (LayerNorm made gradient × input exactly 0 for every token of a one-layer model).
 */
import { answerSteps, type TextRange } from '../data/answers/answerSteps.ts';
import { tokenPieces } from '../data/tokenize/tokenPieces.ts';
import { tokenizeChunk } from '../data/tokenize/tokenize.ts';
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';
import type { BackendProfile } from '../backend/profile.ts';
import { type ScoringPeer, scoreCandidates } from './scoring.ts';

/** At most this many steps are scored (the first ones the model reads); the rest are said to be left out. */
export const MAX_STEPS = 40;
/** At most this many tokens are scored one by one; an answer of at most this many is done whole, at once. */
export const MAX_TOKENS = 64;

export interface DeletionEffect extends TextRange {
  /** The piece: text.slice(start, end) of the candidate's text. */
  text: string;
  /** energy(text without the piece) − energy(candidate): < 0 the piece raises the energy (counts against the answer), > 0 it lowers it (counts for). */
  delta: number;
  /** −delta / the grain's largest |delta|, in [−1, 1]: > 0 against the answer, < 0 for it; how strongly to colour it. */
  shade: number;
}

export interface CandidateSaliency {
  energy: number;
  /** The steps read by the model (at most MAX_STEPS), in text order. */
  steps: DeletionEffect[];
  /** Index in `steps` of the one whose removal lowers the energy most; null when no removal lowers it. */
  distrusted: number | null;
  /** What `tokens` covers: the whole answer (`step` null) or steps[step]. */
  focus: TextRange & { step: number | null };
  /** The answer's tokens (whole characters: a character split over tokens is one piece) in the focus, at most MAX_TOKENS. */
  tokens: DeletionEffect[];
  /** Each grain's largest |delta|: the value a full colour stands for. */
  scales: { steps: number; tokens: number };
  /** Reduced texts scored (besides the candidate itself). */
  variants: number;
  /** Sentences saying what was left out to bound the work; empty when nothing was. */
  capped: string[];
  /** Tokens the model read, and whether the input was cut at maxLen (the text after the cut is not read, nor explained, nor part of any reduced text). */
  tokensRead: number;
  /** Characters of the answer the model read: 0 when the question fills maxLen, so nothing of the answer explains its energy. */
  answerCharsRead: number;
  truncated: boolean;
}

export interface ExplainOptions {
  /** What runs where, taken once where the request starts. */
  profile: BackendProfile;
  peers?: ReadonlyArray<ScoringPeer>;
  /** Variants scored so far of those planned; the total grows once the token grain's focus is known. */
  onProgress?: (done: number, total: number) => void;
}

/** The model inputs of texts answering `question`, exactly as training and Rerank build them, and whether each was cut. */
function modelInputs(cfg: ModelConfig, question: string, texts: string[]): { ids: Uint16Array[]; full: Uint16Array[] } {
  // One id more than maxLen tells an input that was cut from one exactly maxLen long.
  const chunk = tokenizeChunk({
    maxLen: cfg.maxLen + 1,
    clsId: cfg.clsId,
    sepId: cfg.sepId,
    questions: [question],
    groupSizes: [texts.length],
    genTexts: texts,
  });
  const full = texts.map((_, i) => chunk.tokens.subarray(chunk.offsets[i], chunk.offsets[i + 1]));
  return { ids: full.map((f) => f.subarray(0, cfg.maxLen)), full };
}

/** The answer tokens the model reads, as character ranges of `text` (a character split over tokens is one range). */
function answerTokens(cfg: ModelConfig, question: string, text: string, ids: Uint16Array): TextRange[] {
  // [CLS] question [SEP] alone; when that is cut too, every position after CLS is question.
  const questionTokens = modelInputs(cfg, question, ['']).full[0].length - 2;
  const ranges: TextRange[] = [];
  let at = 0;
  for (const piece of tokenPieces(ids, questionTokens)) {
    if (piece.part !== 'answer') continue;
    // Cut inside a character, the last piece ends in U+FFFD: one code unit, as a BMP character has (half
    // of an emoji's pair); the range stays within the text.
    const end = Math.min(text.length, at + piece.text.length);
    ranges.push({ start: at, end });
    at = end;
  }
  return ranges;
}

const without = (text: string, r: TextRange) => text.slice(0, r.start) + text.slice(r.end);

const largest = (pieces: DeletionEffect[]) => pieces.reduce((m, e) => Math.max(m, Math.abs(e.delta)), 0);

function effects(text: string, ranges: TextRange[], energies: Float32Array, energy: number): DeletionEffect[] {
  const out = ranges.map((r, i) => ({ ...r, text: text.slice(r.start, r.end), delta: energies[i] - energy, shade: 0 }));
  const scale = largest(out);
  for (const e of out) e.shade = scale > 0 ? -e.delta / scale : 0;
  return out;
}

export async function explainCandidate(
  cfg: ModelConfig,
  params: ParamTensors,
  question: string,
  text: string,
  opts: ExplainOptions,
): Promise<CandidateSaliency> {
  const input = modelInputs(cfg, question, [text]);
  const tokens = answerTokens(cfg, question, text, input.ids[0]);
  const truncated = input.full[0].length > cfg.maxLen;
  // Only what the model reads is explained, and pieces are deleted from it: deleted from the whole text, a
  // piece would pull unread text into the window, and its delta would measure that text too.
  const read = tokens.length > 0 ? tokens[tokens.length - 1].end : 0;
  const readText = truncated ? text.slice(0, read) : text;
  const readSteps = answerSteps(readText);
  const steps = readSteps.slice(0, MAX_STEPS);
  const capped: string[] = [];
  if (readSteps.length > steps.length) capped.push(`Only the first ${MAX_STEPS} of the ${readSteps.length} steps read were scored.`);

  // A short answer's tokens are scored with its steps, in one batch; a long one's once its focus is known
  // (an answer of blank lines has no step to focus on: its first tokens are scored).
  const whole = tokens.length <= MAX_TOKENS || steps.length === 0;
  const wholeTokens = tokens.slice(0, MAX_TOKENS);
  if (whole && wholeTokens.length < tokens.length) capped.push(`Only the first ${MAX_TOKENS} of the answer's ${tokens.length} tokens were scored.`);
  let total = 1 + steps.length + wholeTokens.length;
  let done = 0;
  const score = (texts: string[]) => {
    const before = done;
    return scoreCandidates(cfg, params, modelInputs(cfg, question, texts).ids, {
      profile: opts.profile,
      peers: opts.peers,
      onProgress: (n) => opts.onProgress?.((done = before + n), total),
    });
  };
  const first = await score([text, ...steps.map((s) => without(readText, s)), ...(whole ? wholeTokens.map((t) => without(readText, t)) : [])]);
  const energy = first[0];
  const stepEffects = effects(text, steps, first.subarray(1, 1 + steps.length), energy);
  const lowest = stepEffects.reduce((best, s, i) => (best < 0 || s.delta < stepEffects[best].delta ? i : best), -1);
  const distrusted = lowest >= 0 && stepEffects[lowest].delta < 0 ? lowest : null;

  let focus: CandidateSaliency['focus'] = { start: 0, end: read, step: null };
  let tokenEffects: DeletionEffect[];
  if (whole) {
    tokenEffects = effects(text, wholeTokens, first.subarray(1 + steps.length), energy);
  } else {
    // Long: the tokens of the step the verifier distrusts most, else of the step it leans on least.
    focus = { start: steps[lowest].start, end: steps[lowest].end, step: lowest };
    const inFocus = tokens.filter((t) => t.end > focus.start && t.start < focus.end);
    const chosen = inFocus.slice(0, MAX_TOKENS);
    if (inFocus.length > chosen.length) capped.push(`Only the first ${MAX_TOKENS} of the step's ${inFocus.length} tokens were scored.`);
    total = 1 + steps.length + chosen.length;
    tokenEffects = effects(text, chosen, await score(chosen.map((t) => without(readText, t))), energy);
  }
  return {
    energy,
    steps: stepEffects,
    distrusted,
    focus,
    tokens: tokenEffects,
    scales: { steps: largest(stepEffects), tokens: largest(tokenEffects) },
    variants: total - 1,
    capped,
    tokensRead: input.ids[0].length,
    answerCharsRead: read,
    truncated,
  };
}
