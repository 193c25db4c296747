/**
 * The answer rules against python/tests/golden/answers.json, which python/tests/test_answers.py reads too: the
 * hand-written cases (what a grader expects) and the app's results on real model outputs, so both sides agree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerKey, extractAnswer, goldAnswerKey } from './answers.ts';

interface Golden {
  extract: Array<[string, string | null]>;
  key: Array<[string, string | null]>;
  same: string[][];
  different: Array<[string, string]>;
  gold: Array<[string, string | null]>;
  real: Array<[string, string | null, string | null]>;
  realAnswerFields: Array<[string, string | null]>;
}
const G = JSON.parse(readFileSync(new URL('../../../python/tests/golden/answers.json', import.meta.url), 'utf8')) as Golden;

describe('answers golden: hand-written cases', () => {
  it('extracts the answer a reader takes', () => {
    for (const [text, want] of G.extract) expect(extractAnswer(text), JSON.stringify(text)).toBe(want);
  });
  it('keys answers', () => {
    for (const [text, want] of G.key) expect(answerKey(text), JSON.stringify(text)).toBe(want);
  });
  it('gives equal answers one key and different answers different keys', () => {
    for (const same of G.same) {
      const keys = same.map((t) => answerKey(t));
      expect(keys[0], JSON.stringify(same)).not.toBeNull();
      expect(new Set(keys).size, JSON.stringify(keys)).toBe(1);
    }
    for (const [a, b] of G.different) expect(answerKey(a), `${a} / ${b}`).not.toBe(answerKey(b));
  });
  it('keys gold answers, worked solutions by their final answer', () => {
    for (const [gold, want] of G.gold) expect(goldAnswerKey(gold), JSON.stringify(gold)).toBe(want);
  });
  it('has hundreds of cases', () => {
    expect(G.extract.length + G.key.length + G.same.flat().length + G.different.length + G.gold.length).toBeGreaterThan(250);
    expect(G.real.length).toBeGreaterThan(200);
  });
});

describe('answers golden: real model outputs (pinned, and python/ must give the same)', () => {
  it('extracts and keys every stored output as recorded', () => {
    for (const [text, extracted, key] of G.real) {
      expect(extractAnswer(text), text.slice(-200)).toBe(extracted);
      expect(extracted === null ? null : answerKey(extracted)).toBe(key);
    }
    for (const [field, key] of G.realAnswerFields) expect(answerKey(field), field).toBe(key);
  });
});
