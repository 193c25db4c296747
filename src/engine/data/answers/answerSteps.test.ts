import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerSteps } from './answerSteps.ts';

const pieces = (text: string) => answerSteps(text).map((s) => text.slice(s.start, s.end));

describe('answerSteps', () => {
  it('cuts at lines and at the sentences within a line; the steps concatenate to the text', () => {
    expect(pieces('She has 16 eggs. She eats 3 of them.\n\nAnswer: 13')).toEqual(['She has 16 eggs. ', 'She eats 3 of them.\n\n', 'Answer: 13']);
    expect(pieces('16 - 3 = 13\n13 * 2 = 26\n#### 26')).toEqual(['16 - 3 = 13\n', '13 * 2 = 26\n', '#### 26']);
    expect(pieces('It costs $3.50 each (about 3.5). So 2 cost $7!')).toEqual(['It costs $3.50 each (about 3.5). ', 'So 2 cost $7!']);
    expect(pieces('He said "stop." Then he left.')).toEqual(['He said "stop." ', 'Then he left.']);
  });

  it('a list marker starts the step after it; leading whitespace joins the first step, blank lines the step before', () => {
    expect(pieces('Steps:\n    1. Add them.\n    2. Double it.\n')).toEqual(['Steps:\n', '    1. Add them.\n', '    2. Double it.\n']);
    expect(pieces('\n\n  A\n\n\nB')).toEqual(['\n\n  A\n\n\n', 'B']);
    expect(pieces('1.\n2.')).toEqual(['1.\n2.']);
  });

  it('blank text has no steps; text without a boundary is one step', () => {
    expect(answerSteps('')).toEqual([]);
    expect(answerSteps('  \n \n')).toEqual([]);
    expect(pieces('#### 18')).toEqual(['#### 18']);
  });

  it('partitions real answers (16-answer GSM8K, first 200 questions)', () => {
    const texts = readFileSync('bench/data/zeroeval-gsm8k-16cand-first200.jsonl', 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { gen_text: string }).gen_text);
    let steps = 0;
    for (const text of texts) {
      const s = answerSteps(text);
      expect(s.map((r) => text.slice(r.start, r.end)).join('')).toBe(text);
      s.forEach((r, i) => expect(r.start).toBe(i === 0 ? 0 : s[i - 1].end));
      steps += s.length;
    }
    // Mostly one paragraph and an answer line each: sentences give them several steps.
    expect(steps / texts.length).toBeGreaterThan(4);
    console.log(`${texts.length} answers, ${(steps / texts.length).toFixed(1)} steps each on average`);
  });
});
