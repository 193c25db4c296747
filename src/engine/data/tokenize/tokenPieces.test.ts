import { describe, expect, it } from 'vitest';
import { GPT2_EOT } from './gpt2.ts';
import { encodeOrdinary, tokenizeChunk } from './tokenize.ts';
import { type TokenPiece, partAt, tokenPieces } from './tokenPieces.ts';

function input(question: string, answer: string, maxLen = 4096): { ids: Uint16Array; questionTokens: number } {
  const ids = tokenizeChunk({ maxLen, clsId: GPT2_EOT, sepId: GPT2_EOT, questions: [question], groupSizes: [1], genTexts: [answer] }).tokens;
  return { ids, questionTokens: encodeOrdinary(question).length };
}

const textOf = (pieces: TokenPiece[], part: string) =>
  pieces
    .filter((p) => p.part === part)
    .map((p) => p.text)
    .join('');

/** Pieces cover every position once, in order. */
function expectTiling(pieces: TokenPiece[], length: number) {
  let next = 0;
  for (const p of pieces) {
    expect(p.start).toBe(next);
    expect(p.end).toBeGreaterThan(p.start);
    next = p.end;
  }
  expect(next).toBe(length);
}

describe('tokenPieces', () => {
  it("gives one piece per token of plain text, the parts in order, each part's text exactly", () => {
    const { ids, questionTokens } = input('What is 3+5?', ' The answer is $\\boxed{8}$.');
    const pieces = tokenPieces(ids, questionTokens);
    expect(pieces.length).toBe(ids.length);
    expectTiling(pieces, ids.length);
    expect(pieces[0]).toEqual({ text: '[CLS]', part: 'cls', start: 0, end: 1 });
    expect(pieces[questionTokens + 1]).toEqual({ text: '[SEP]', part: 'sep', start: questionTokens + 1, end: questionTokens + 2 });
    expect(textOf(pieces, 'question')).toBe('What is 3+5?');
    expect(textOf(pieces, 'answer')).toBe(' The answer is $\\boxed{8}$.');
  });

  it('joins the tokens of a character split over several into one piece', () => {
    const answer = '3×5 = 15 🍎, 中文, café 👍🏽';
    const { ids, questionTokens } = input('Sum', answer);
    const pieces = tokenPieces(ids, questionTokens);
    expectTiling(pieces, ids.length);
    expect(textOf(pieces, 'answer')).toBe(answer);
    expect(pieces.some((p) => p.end - p.start > 1)).toBe(true);
    expect(pieces.map((p) => p.text).join('')).not.toContain('\uFFFD');
    expect(pieces.find((p) => p.text.includes('🍎'))).toBeDefined();
  });

  it('an input cut inside a character ends in U+FFFD, and a cut question has no [SEP]', () => {
    const { ids, questionTokens } = input('Q', '🍎🍎');
    // The first apple is complete at some token; cut one token before the end.
    const pieces = tokenPieces(ids.subarray(0, ids.length - 1), questionTokens);
    expect(textOf(pieces, 'answer')).toMatch(/^🍎\uFFFD+$/);

    const long = input('one two three four five six', 'x');
    const cut = tokenPieces(long.ids.subarray(0, 4), long.questionTokens);
    expect(cut.map((p) => p.part)).toEqual(['cls', 'question', 'question', 'question']);
    expect(textOf(cut, 'question')).toBe('one two three');
  });

  it('an empty question gives [CLS] [SEP] answer', () => {
    const { ids, questionTokens } = input('', 'Yes');
    expect(questionTokens).toBe(0);
    expect(tokenPieces(ids, 0).map((p) => [p.part, p.text])).toEqual([
      ['cls', '[CLS]'],
      ['sep', '[SEP]'],
      ['answer', 'Yes'],
    ]);
    expect(partAt(2, 0)).toBe('answer');
  });
});
