import { describe, expect, it } from 'vitest';
import { answerKey, candidateAnswerKey, extractAnswer, MAX_EXAMINED_CHARS } from './answers.ts';
import { growth } from './testing/scaling.ts';

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
    expect(answerKey('-1.8 billion')).toBe('-1.8');
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

  it('unwraps math delimiters and \\boxed, and normalises simple fractions', () => {
    expect(answerKey('\\boxed{\\frac{1}{2}}')).toBe('1/2');
    expect(answerKey('$\\dfrac{1}{2}$')).toBe('1/2');
    expect(answerKey('\\tfrac12')).toBe('1/2');
    expect(answerKey('1/2')).toBe('1/2');
    expect(answerKey('-\\frac{3}{4}')).toBe('-3/4');
    expect(answerKey('\\(x = 5\\)')).toBe('x=5');
    expect(answerKey('\\left( 3, \\frac{\\pi}{2} \\right)')).toBe('(3,\\frac{\\pi}{2})');
    expect(answerKey('\\frac{\\sqrt{3}}{2}')).toBe('\\frac{\\sqrt{3}}{2}');
  });

  it('keeps non-numeric answers as text without whitespace', () => {
    expect(answerKey("10+John's age")).toBe("10+John'sage");
    expect(answerKey('  Monday. ')).toBe('Monday');
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
  ];
  it.each(cases)('%s', (_, n, make, run) => {
    const g = growth(make, run, n);
    expect(g.ratio, `${g.small.toFixed(4)} ms → ${g.large.toFixed(4)} ms`).toBeLessThan(20);
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
