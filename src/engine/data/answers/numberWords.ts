/**
 * Words after a number that are part of it (answerNumber.ts): a scale ("2.5 million", "$50k") multiplies it, a
 * power ("5 squared", "3 cubed") raises it, where they would otherwise be read as its unit.
 * python/eorm/answers/number_words.py is the twin.
 */
import { type Rational, mul, pow } from './rational.ts';

const SCALE_WORDS: Array<[string, bigint]> = [
  ['hundred', 100n],
  ['thousand', 1000n],
  ['million', 10n ** 6n],
  ['billion', 10n ** 9n],
  ['trillion', 10n ** 12n],
];
const POWER_WORDS: Array<[string, bigint]> = [
  ['squared', 2n],
  ['cubed', 3n],
];

const isLetter = (c: string | undefined): boolean => c !== undefined && /[A-Za-z]/.test(c);
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Where `word` ends when it starts at i and no letter follows it, else -1. */
function wordAt(s: string, i: number, word: string): number {
  return s.startsWith(word, i) && !isLetter(s[i + word.length]) ? i + word.length : -1;
}

function afterSpaces(s: string, i: number): number {
  while (isSpace(s[i])) i++;
  return i;
}

/**
 * The value with the words at `i` applied, and where they end: a scale word ("k"/"K" only written close:
 * "50k"), then a power word. [null, …] when the result passes the bounds of rational.ts.
 */
export function numberWords(s: string, i: number, value: Rational): [Rational | null, number] {
  let out: Rational | null = value;
  let end = wordAt(s, i, 'k') >= 0 ? i + 1 : wordAt(s, i, 'K') >= 0 ? i + 1 : -1;
  if (end >= 0) out = mul(value, { num: 1000n, den: 1n });
  else {
    const from = afterSpaces(s, i);
    const scale = SCALE_WORDS.find(([w]) => wordAt(s, from, w) >= 0);
    end = scale === undefined ? i : from + scale[0].length;
    if (scale !== undefined) out = mul(value, { num: scale[1], den: 1n });
  }
  const from = afterSpaces(s, end);
  const power = POWER_WORDS.find(([w]) => wordAt(s, from, w) >= 0);
  if (power === undefined) return [out, end];
  return [out === null ? null : pow(out, { num: power[1], den: 1n }), from + power[0].length];
}
