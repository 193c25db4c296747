/**
 * The answer rules against python/tests/golden/answers.json, which python/tests/test_answers.py reads too: the
 * hand-written cases (what a grader expects) and the app's results on real model outputs, so both sides agree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classKeys } from './answerClasses.ts';
import { answersEqual } from './answerEquality.ts';
import { answerKey, candidateMatchesGold, extractAnswer, goldAnswerKey } from './answers.ts';

interface Golden {
  extract: Array<[string, string | null]>;
  key: Array<[string, string | null]>;
  same: string[][];
  different: Array<[string, string]>;
  equal: string[][];
  gold: Array<[string, string | null]>;
  matches: Array<[string | null, string, string, boolean | null]>;
  classes: Array<[Array<string | null>, number[]]>;
  real: Array<[string, string | null, string | null]>;
  realAnswerFields: Array<[string, string | null]>;
  realClasses: Array<[Array<string | null>, Array<string | null>]>;
}
const G = JSON.parse(readFileSync(new URL('../../../../python/tests/golden/answers.json', import.meta.url), 'utf8')) as Golden;
const keyOf = (a: string | null): string | null => (a === null ? null : answerKey(a));

describe('answers golden: hand-written cases', () => {
  it('extracts the answer a reader takes', () => {
    for (const [text, want] of G.extract) expect(extractAnswer(text), JSON.stringify(text)).toBe(want);
  });
  it('keys answers', () => {
    for (const [text, want] of G.key) expect(answerKey(text), JSON.stringify(text)).toBe(want);
  });
  it('gives equal answers one key, or calls them equal, and calls different answers different', () => {
    for (const same of G.same) {
      const keys = same.map((t) => answerKey(t));
      expect(keys[0], JSON.stringify(same)).not.toBeNull();
      expect(new Set(keys).size, JSON.stringify(keys)).toBe(1);
    }
    for (const equal of G.equal) {
      for (const b of equal.slice(1)) expect(answersEqual(answerKey(equal[0]), answerKey(b)), `${equal[0]} / ${b}`).toBe(true);
    }
    for (const [a, b] of G.different) expect(answersEqual(answerKey(a), answerKey(b)), `${a} / ${b}`).toBe(false);
  });
  it('keys gold answers, worked solutions by their final answer, and gives the verdict against them', () => {
    for (const [gold, want] of G.gold) expect(goldAnswerKey(gold), JSON.stringify(gold)).toBe(want);
    for (const [field, text, gold, want] of G.matches) expect(candidateMatchesGold(field, text, gold), JSON.stringify([field, text, gold])).toBe(want);
  });
  it("groups a question's equal answers for its vote", () => {
    for (const [answers, want] of G.classes) {
      const classes = classKeys(answers.map(keyOf));
      expect(
        classes.map((c) => (c === null ? -1 : classes.indexOf(c))),
        JSON.stringify(answers),
      ).toEqual(want);
    }
  });
  it('has hundreds of cases', () => {
    expect(G.extract.length + G.key.length + G.same.flat().length + G.different.length + G.equal.flat().length + G.gold.length).toBeGreaterThan(500);
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
  it("groups each stored question's answers as recorded", () => {
    for (const [keys, classes] of G.realClasses) expect(classKeys(keys), JSON.stringify(keys)).toEqual(classes);
  });
});
