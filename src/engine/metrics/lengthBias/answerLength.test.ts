import { describe, expect, it } from 'vitest';
import { encodeOrdinary, tokenizeChunk } from '../../data/tokenize/tokenize.ts';
import { GPT2_EOT } from '../../data/tokenize/gpt2.ts';
import { answerTokens } from './answerLength.ts';

const view = (questions: string[], texts: string[][], maxLen: number) => {
  const chunk = tokenizeChunk({ maxLen, clsId: GPT2_EOT, sepId: GPT2_EOT, questions, groupSizes: texts.map((t) => t.length), genTexts: texts.flat() });
  return { tokens: { maxLen, ...chunk }, labels: new Uint8Array(chunk.offsets.length - 1), groupStart: Uint32Array.from([0, chunk.offsets.length - 1]) };
};

describe('answerTokens', () => {
  it("counts the answer text's tokens after the separator, whatever the question holds", () => {
    // A question that types <|endoftext|> as text: 7 ordinary tokens, never the separator's id.
    const q = 'What is 2 + 2? <|endoftext|>';
    const texts = ['It is 4.', 'Two and two make four, so the answer is 4.', ''];
    const v = view([q], [texts], 4096);
    expect(Array.from(answerTokens(v, 0, 3, GPT2_EOT))).toEqual(texts.map((t) => encodeOrdinary(t).length));
    expect(Array.from(answerTokens(v, 1, 2, GPT2_EOT))).toEqual(texts.slice(1).map((t) => encodeOrdinary(t).length));
  });

  it('counts what the input cap keeps, and 0 when the question fills it', () => {
    const v = view(['Q'], [['one two three four five six']], 5); // CLS Q SEP + 2 answer tokens
    expect(Array.from(answerTokens(v, 0, 1, GPT2_EOT))).toEqual([2]);
    const full = view(['a long question that fills every id'], [['answer']], 4);
    expect(Array.from(answerTokens(full, 0, 1, GPT2_EOT))).toEqual([0]);
  });
});
