import { describe, expect, it } from 'vitest';
import { answerKey, candidateAnswerKey, extractAnswer, goldAnswerKey, matchesGold, MAX_EXAMINED_CHARS } from './answers.ts';
import { growth, LINEAR_LIMIT } from '../testing/scaling.ts';

describe('extractAnswer', () => {
  it('takes the last \\boxed{…}, with nested braces', () => {
    expect(extractAnswer('so $\\boxed{\\frac{1}{2}}$.')).toBe('\\frac{1}{2}');
    expect(extractAnswer('first \\boxed{3}, then \\boxed{\\dfrac{\\sqrt{3}}{2}} done')).toBe('\\dfrac{\\sqrt{3}}{2}');
    expect(extractAnswer('\\fbox{7} #### 8')).toBe('7');
  });

  it('skips an unbalanced \\boxed and falls back to the next rule', () => {
    expect(extractAnswer('\\boxed{12 oops\n#### 13')).toBe('13');
  });

  it('reads GSM8K "####" answers (the last one, to the end of its line)', () => {
    expect(extractAnswer('48/2 = 24\n#### 1,234')).toBe('1,234');
    expect(extractAnswer('#### 5\nrethink\n#### 6\nextra line')).toBe('6');
  });

  it('reads "The answer is …" up to the end of the sentence', () => {
    expect(extractAnswer('So she makes 9 * 2 = 18. The answer is $18.')).toBe('$18');
    expect(extractAnswer('The answer is 3.5. I hope it is correct.')).toBe('3.5');
    expect(extractAnswer('the final answer is: 42')).toBe('42');
  });

  it('reads a final "A:" line', () => {
    expect(extractAnswer('16 - 3 - 4 = 9 eggs\n9 * 2 = 18\nA: 18')).toBe('18');
  });

  it('falls back to the last number, keeping thousands separators and decimals', () => {
    expect(extractAnswer('She has 3 cats and 1,200.50 dollars left.')).toBe('1,200.50');
    expect(extractAnswer('It drops to -4 degrees')).toBe('-4');
    expect(extractAnswer('no digits here')).toBeNull();
    expect(extractAnswer('')).toBeNull();
  });
});

describe("the issue's table: what a grader reads", () => {
  const key = (t: string) => answerKey(extractAnswer(t)!);
  it('keeps both parts of a fraction, the sign of -$40, a LaTeX fraction whole, and drops markdown', () => {
    expect(key('So 56/3 it is.\nAnswer: 56/3')).toBe('56/3');
    expect(key('The loss is 40 dollars.\nAnswer: -$40')).toBe('-40');
    expect(key('Half of 3/2 is $\\frac{3}{4}$')).toBe(answerKey('0.75'));
    expect(key('So she makes 9 * 2 = 18. The answer is **18**.')).toBe('18');
  });

  it('lets a final Answer: line win over an earlier "the answer is"', () => {
    expect(extractAnswer('The answer is 5, I think.\nLet me recheck: 7.\nAnswer: 7')).toBe('7');
    expect(extractAnswer('#### 10\nThe answer is 11.')).toBe('11');
    expect(extractAnswer('\\boxed{3} then Answer: 4')).toBe('3');
  });
});

describe('gold answers', () => {
  it('keys a worked GSM8K solution by its "####" answer and a bare answer as it is', () => {
    expect(goldAnswerKey('She makes 9 * 2 = $18 every day.\n#### 18')).toBe('18');
    expect(goldAnswerKey('\\frac{3}{4}')).toBe('0.75');
    expect(matchesGold('0.75', '3/4')).toBe(true);
    expect(matchesGold(null, '3/4')).toBe(false);
    expect(matchesGold('18', null)).toBeNull();
    expect(matchesGold('18', '  ')).toBeNull();
  });
});

describe('answerKey', () => {
  it('compares numbers numerically after removing $, commas and units', () => {
    expect(answerKey('$1,000.00')).toBe('1000');
    expect(answerKey('1000')).toBe('1000');
    expect(answerKey('18 eggs')).toBe('18');
    expect(answerKey('0.50')).toBe('0.5');
    expect(answerKey('.5')).toBe('0.5');
    expect(answerKey('$18')).toBe('18');
    expect(answerKey('50%')).toBe('50');
    expect(answerKey('50\\%')).toBe('50');
    // A scale word is part of the number (issue 44: "taken for units" was wrong); the old key was '-1.8'.
    expect(answerKey('-1.8 billion')).toBe('-1800000000');
    expect(answerKey('\u22125')).toBe('-5');
    expect(answerKey('-0')).toBe('0');
    expect(answerKey('007')).toBe('7');
    expect(answerKey('1,234,567')).toBe('1234567');
    expect(answerKey('1{,}000')).toBe('1000');
    expect(answerKey('90^\\circ')).toBe('90');
    expect(answerKey('\\text{5 dollars}')).toBe('5');
  });

  it('treats long repeating decimals as the same number', () => {
    expect(answerKey(`0.${'3'.repeat(40)}`)).toBe(answerKey(`0.${'3'.repeat(300)}`));
  });

  it('does not merge a list into one number', () => {
    expect(answerKey('5,6')).toBe('5,6');
    expect(answerKey('3 hours and 20 minutes')).toBe('3hoursand20minutes');
  });

  // Fractions are exact rationals: one with a terminating decimal is keyed as that decimal, so \frac{1}{2},
  // 1/2 and 0.5 vote together (the old "1/2" key split them from "0.5"); others stay "p/q".
  it('unwraps math delimiters and \\boxed, and reads fractions as exact numbers', () => {
    expect(answerKey('\\boxed{\\frac{1}{2}}')).toBe('0.5');
    expect(answerKey('$\\dfrac{1}{2}$')).toBe('0.5');
    expect(answerKey('\\tfrac12')).toBe('0.5');
    expect(answerKey('1/2')).toBe('0.5');
    expect(answerKey('-\\frac{3}{4}')).toBe('-0.75');
    expect(answerKey('\\frac{56}{3}')).toBe('56/3');
    // "x =" is not part of the answer (MATH's grader drops it too); the old key kept "x=5".
    expect(answerKey('\\(x = 5\\)')).toBe('5');
    // \frac{a}{b} of non-numbers is written a/b, so it meets the same answer written with a slash.
    expect(answerKey('\\left( 3, \\frac{\\pi}{2} \\right)')).toBe('(3,\\pi/2)');
    expect(answerKey('\\frac{\\sqrt{3}}{2}')).toBe('\\sqrt{3}/2');
  });

  it('keeps non-numeric answers as text without whitespace', () => {
    expect(answerKey("10+John's age")).toBe("10+John'sage");
    // Words are compared without case (the issue: text answers by case); the old key kept "Monday".
    expect(answerKey('  Monday. ')).toBe('monday');
    expect(answerKey('x')).not.toBe(answerKey('X'));
  });

  it('returns null when nothing is left', () => {
    expect(answerKey('')).toBeNull();
    expect(answerKey(' $ $ ')).toBeNull();
    expect(answerKey('.')).toBeNull();
  });

  it('makes the extracted answers of equal results equal (GSM8K and MATH styles)', () => {
    const key = (t: string) => answerKey(extractAnswer(t)!);
    expect(key('#### 1,234')).toBe(key('The answer is 1234.'));
    expect(key('The answer is $18.')).toBe(key('A: 18'));
    expect(key('so \\boxed{18 \\text{ eggs}}')).toBe('18');
    expect(key('$\\boxed{\\frac{1}{2}}$')).toBe(key('The answer is \\dfrac{1}{2}.'));
  });
});

describe('candidateAnswerKey', () => {
  it('prefers the answer field and extracts from the text otherwise', () => {
    expect(candidateAnswerKey('$1,000', 'A: 7')).toBe('1000');
    expect(candidateAnswerKey(null, 'A: 7')).toBe('7');
    expect(candidateAnswerKey('  ', 'A: 7')).toBe('7');
    expect(candidateAnswerKey(null, 'nothing to see')).toBeNull();
  });
});

describe('answer extraction on hostile input runs in linear time', () => {
  // Each input once at n and once at 8n characters: linear work grows about 8×, quadratic work 64×.
  // n = 5,000 checks extraction and canonicalisation of long answers; n = 120 the same on short ones.
  const cases: Array<[string, number, (n: number) => string, (input: string) => unknown]> = [
    ['an answer field "a<spaces>b"', 5_000, (n) => `a${' '.repeat(n)}b`, (s) => candidateAnswerKey(s, 'g')],
    ['an answer field "a<spaces>b", short', 120, (n) => `a${' '.repeat(n)}b`, (s) => answerKey(s)],
    ['"A: " and dots, then a letter', 5_000, (n) => `A: ${'.'.repeat(n)}x`, (s) => candidateAnswerKey(null, s)],
    ['"A:" and only spaces', 5_000, (n) => `A:${' '.repeat(n)}`, (s) => candidateAnswerKey(null, s)],
    ['dollars around a text', 5_000, (n) => `${'$'.repeat(n)}x`, (s) => answerKey(s)],
    ['dollars around a text, short', 120, (n) => `${'$'.repeat(n)}x`, (s) => answerKey(s)],
    ['trailing dots and spaces', 5_000, (n) => `7${'. '.repeat(n / 2)}x`, (s) => answerKey(s)],
    ['nested \\boxed', 5_000, (n) => `${'\\boxed{'.repeat(n / 8)}1${'}'.repeat(n / 8)}`, (s) => answerKey(s)],
    ['nested \\frac', 5_000, (n) => `${'\\frac{1}{'.repeat(n / 8)}2${'}'.repeat(n / 8)}`, (s) => answerKey(s)],
    ['nested brackets', 5_000, (n) => `${'('.repeat(n / 2)}1,2${')'.repeat(n / 2)}`, (s) => answerKey(s)],
    ['a long list of solutions', 5_000, (n) => Array.from({ length: n / 8 }, (_, i) => `x=${i}`).join(' or '), (s) => answerKey(s)],
    ['unclosed \\boxed in a text', 5_000, (n) => '\\boxed{'.repeat(n / 7), (s) => extractAnswer(s)],
    ['"Answer:" lines without a colon', 5_000, (n) => '\nAnswer '.repeat(n / 8), (s) => extractAnswer(s)],
    ['a JSON "answer" string never closed', 5_000, (n) => `"answer": "${'\\"'.repeat(n / 2)}`, (s) => extractAnswer(s)],
    ['digits with spaces', 5_000, (n) => '1 000 '.repeat(n / 6), (s) => answerKey(s)],
    ['unclosed \\frac arguments', 5_000, (n) => '\\frac{1}{'.repeat(n / 8), (s) => answerKey(s)],
    ['unclosed \\sqrt indices', 5_000, (n) => '\\sqrt[3'.repeat(n / 7), (s) => answerKey(s)],
    ['unclosed superscripts', 5_000, (n) => 'x^{'.repeat(n / 3), (s) => answerKey(s)],
    ['escaped JSON answers never closed', 5_000, (n) => '\\"answer\\": \\"'.repeat(n / 14), (s) => extractAnswer(s)],
  ];
  it.each(cases)('%s', (_, n, make, run) => {
    const g = growth(make, run, n);
    expect(g.ratio, `${g.small.toFixed(4)} ms → ${g.large.toFixed(4)} ms`).toBeLessThan(LINEAR_LIMIT);
  });
});

describe('a megabyte of hostile text', () => {
  // Bounded by construction: an answer over MAX_EXAMINED_CHARS gets no key before any reading, and a text is
  // searched in its last MAX_EXAMINED_CHARS only, so work does not depend on the megabyte.
  const mb = 1 << 20;
  it('gives an over-long answer no key and reads only the tail of a text', () => {
    expect(answerKey('1'.repeat(mb))).toBeNull();
    expect(answerKey(`\\frac{${'{'.repeat(mb)}`)).toBeNull();
    expect(extractAnswer('\\boxed{'.repeat(mb / 7))).toBeNull();
    expect(extractAnswer(`${'('.repeat(mb)}\nAnswer: 7`)).toBe('7');
    expect(extractAnswer(`${'x'.repeat(mb)}\n#### 5`)).toBe('5');
    expect(candidateAnswerKey(null, `${'\\frac{1}{'.repeat(mb / 8)}2}`)).toBe('0.5');
  });
});

describe('answer limits', () => {
  it('gives no key to an answer longer than MAX_EXAMINED_CHARS', () => {
    expect(answerKey(`0.${'3'.repeat(MAX_EXAMINED_CHARS - 2)}`)).toBe(answerKey('0.3333333333333333'));
    expect(answerKey(`0.${'3'.repeat(MAX_EXAMINED_CHARS - 1)}`)).toBeNull();
  });

  it('strips at most 8 nested wrappers', () => {
    expect(answerKey(`$${'\\boxed{'.repeat(4)}18${'}'.repeat(4)}$`)).toBe('18');
    expect(answerKey(`${'\\boxed{'.repeat(9)}18${'}'.repeat(9)}`)).toBe('\\boxed{18}');
  });

  it('searches only the last MAX_EXAMINED_CHARS of a text, from a line start', () => {
    const filler = `${'word '.repeat(MAX_EXAMINED_CHARS / 5)}\n`;
    expect(extractAnswer(`#### 5\n${filler}no digits`)).toBeNull();
    expect(extractAnswer(`#### 5\n${filler}#### 6`)).toBe('6');
    // A line that begins before the window is not searched, even where its end lies inside it.
    const cut = `x${'y'.repeat(MAX_EXAMINED_CHARS)}A: 9\nend`;
    expect(extractAnswer(cut)).toBeNull();
  });

  it('keeps the "A:" rule: the last line with an answer, CRLF endings, a blank "A:" line skipped', () => {
    expect(extractAnswer('A: 3\r\nA: 4\r\nA:   \r\n')).toBe('4');
    expect(extractAnswer('  A:\t5 eggs \u2028more')).toBe('5 eggs');
    expect(extractAnswer('xA: 6')).toBe('6'); // not a line start: the last number decides
  });
});
