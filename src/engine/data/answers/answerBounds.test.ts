/**
 * Hostile answers cost bounded work: counted (characters read, items compared), never timed. The Python twin
 * checks the same bounds (python/tests/test_answers.py, Hostile).
 */
import { describe, expect, it } from 'vitest';
import { AnswerClasses, MAX_COMPARED_CLASSES } from './answerClasses.ts';
import { MAX_MATCHED_ITEMS, answersEqual } from './answerEquality.ts';
import { formOf } from './answerForm.ts';
import type { Reader } from './answerFormKinds.ts';
import { answerKey, candidateMatchesGold } from './answers.ts';
import { MAX_DEPTH } from './linearLatex.ts';
import { exactValue } from './mathEval.ts';
import { MAX_MATH_CHARS, MAX_MATH_DEPTH, MAX_MATH_LINKS, parseMath } from './mathParse.ts';
import { MAX_BITS } from './rational.ts';

/** Characters formOf reads, over every part it reads again one level deeper. */
function charactersRead(s: string): number {
  let read = 0;
  const counting: Reader = (t, depth) => {
    read += t.length;
    return formOf(t, depth, counting);
  };
  counting(s, 0);
  return read;
}

describe('an answer is read a bounded number of times', () => {
  // Each nesting level reads its parts once as a collection and once as a relation: MAX_DEPTH levels at most.
  const shapes: Array<[string, (n: number) => string]> = [
    ['nested named tuples', (n) => `${'(x=(a,'.repeat(n)}1${'),b)'.repeat(n)}`],
    ['relations inside lists', (n) => `${'a=(b=(c,'.repeat(n)}1${')),'.repeat(n)}`],
    ['sets of solutions', (n) => `${'\\{x=1,'.repeat(n)}2${'\\}'.repeat(n)}`],
    ['empty parts and chains', (n) => `${'(p='.repeat(n)}1${',,1)'.repeat(n)}`],
    ['long lists of solutions', (n) => Array.from({ length: n }, (_, i) => `x_${i}=a,b=c`).join(' or ')],
    ['unions of intervals', (n) => Array.from({ length: n }, () => '(a=1,b=2)\\cup[x<1,y]').join('\\cup')],
    ['one ± in nested brackets', (n) => `x=\\pm(${'a=(b,'.repeat(n)}1${'))'.repeat(n)}`],
  ];
  it.each(shapes)('%s', (_, make) => {
    for (const n of [4, 64, 2000]) {
      const s = make(n);
      expect(charactersRead(s), `n = ${n}`).toBeLessThanOrEqual(2 * (MAX_DEPTH + 1) * s.length);
    }
  });
});

describe('mathematics is parsed within bounds', () => {
  it('parses up to MAX_MATH_CHARS characters, MAX_MATH_DEPTH levels and MAX_MATH_LINKS operations, and refuses more', () => {
    expect(parseMath('9'.repeat(MAX_MATH_CHARS))).not.toBeNull();
    expect(parseMath('9'.repeat(MAX_MATH_CHARS + 1))).toBeNull();
    expect(parseMath(`1${'+1'.repeat(MAX_MATH_LINKS)}`)).not.toBeNull();
    expect(parseMath(`1${'+1'.repeat(MAX_MATH_LINKS + 1)}`)).toBeNull();
    expect(parseMath(`5${'!'.repeat(MAX_MATH_LINKS + 1)}`)).toBeNull();
    const nested = (k: number) => `${'('.repeat(k)}1${')'.repeat(k)}`;
    expect(parseMath(nested(10))).not.toBeNull();
    expect(parseMath(nested(MAX_MATH_DEPTH))).toBeNull();
  });

  it('evaluates exactly only within the bounds of rational.ts', () => {
    // 256^k has 8k + 1 bits.
    expect(exactValue(parseMath(`256^{${MAX_BITS / 8 - 1}}`)!)).toEqual({ num: 2n ** BigInt(MAX_BITS - 8), den: 1n });
    expect(exactValue(parseMath(`256^{${MAX_BITS / 8}}`)!)).toBeNull();
    expect(exactValue(parseMath('99^{999}')!)).toBeNull();
    expect(answerKey('99^{999}')).toBe('99^{999}');
  });

  it('compares answers too long to parse by their keys only', () => {
    const long = `x+${'9'.repeat(MAX_MATH_CHARS)}`;
    expect(answersEqual(answerKey(long), answerKey(`${long}+0`))).toBe(false);
    expect(answersEqual(answerKey('x+x+0'), answerKey('2x'))).toBe(true);
  });
});

describe('lists and classes are compared within bounds', () => {
  // k√2 and √(2k²) are equal with different keys, so the lists only match item by item.
  const roots = (n: number) => Array.from({ length: n }, (_, k) => `${k + 1}\\sqrt{2}`).join(', ');
  const radicands = (n: number) => Array.from({ length: n }, (_, k) => `\\sqrt{${2 * (k + 1) ** 2}}`).join(', ');
  it('matches lists of up to MAX_MATCHED_ITEMS items', () => {
    expect(answersEqual(answerKey(roots(MAX_MATCHED_ITEMS)), answerKey(radicands(MAX_MATCHED_ITEMS)))).toBe(true);
    expect(answersEqual(answerKey(roots(MAX_MATCHED_ITEMS + 1)), answerKey(radicands(MAX_MATCHED_ITEMS + 1)))).toBe(false);
  });

  it('compares a new answer with the first MAX_COMPARED_CLASSES classes of its question', () => {
    const vote = (distinctBefore: number) => {
      const classes = new AnswerClasses();
      for (let k = 0; k < distinctBefore; k++) classes.classOf(String(1000 + k));
      return [classes.classOf(answerKey('2\\sqrt{2}')), classes.classOf(answerKey('\\sqrt{8}'))];
    };
    expect(vote(MAX_COMPARED_CLASSES - 1)).toEqual(['2\\sqrt{2}', '2\\sqrt{2}']);
    expect(vote(MAX_COMPARED_CLASSES)).toEqual(['2\\sqrt{2}', '\\sqrt{8}']);
  });
});

describe('a megabyte of hostile text', () => {
  it('gives a verdict from the tail of the text and no key to an over-long answer', () => {
    const mb = 1 << 20;
    expect(candidateMatchesGold(null, `${'$x$ '.repeat(mb / 4)}\n\\boxed{1} and \\boxed{2}`, '\\{1,2\\}')).toBe(true);
    expect(candidateMatchesGold(`${'('.repeat(mb)}1`, '', '1')).toBe(false);
    expect(candidateMatchesGold(null, '\\boxed{'.repeat(mb / 7), '1')).toBe(false);
  });
});
