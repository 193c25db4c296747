import { numberWords } from './numberWords.ts';
import { MAX_EXPONENT, type Rational, rational } from './rational.ts';

/**
 * Numbers in final answers, read exactly: every spelling of a number (18, -$40, 1,234.50, .5, 56/3,
 * \frac{56}{3}, \frac56, 2\frac{1}{2}, 1.5e3, 1.5 \times 10^{3}, 1011_2, 18 eggs, 50%) becomes one exact
 * rational, so equal numbers get one key and different ones never share it. python/eorm/answers/answer_number.py
 * is the twin. Every reader here scans its input once (no backtracking regex on unbounded text).
 */

/** A decimal with at least this many digits after the point may stand for a fraction it rounds or truncates (0.333 = 1/3). */
export const APPROX_MIN_DIGITS = 3;
/** ... a fraction with a denominator at most this: two such fractions differ by ≥ 1/400, more than 0.001's rounding, so at most one fits. */
export const APPROX_MAX_DEN = 20n;
/** Decimals are read rounded to this many places: more is floating-point noise (499.99999999999994 is 500). */
const MAX_PLACES = 12;

/**
 * The decimal intDigits.fracDigits as a rational. With at least APPROX_MIN_DIGITS decimals and no exact small
 * denominator, the fraction with denominator ≤ APPROX_MAX_DEN whose rounding (half up) or truncation to that
 * many places it is, if any: 0.333, 0.3333 and 0.667 are 1/3 and 2/3; 0.33 and 0.001 stay themselves.
 */
function decimalValue(intDigits: string, fracDigits: string): Rational {
  const places = Math.min(fracDigits.length, MAX_PLACES);
  const scale = 10n ** BigInt(places);
  let x = BigInt(`0${intDigits}${fracDigits.slice(0, places)}`);
  if (fracDigits.length > MAX_PLACES && fracDigits[MAX_PLACES] >= '5') x += 1n; // rounded half up
  const exact = rational(x, scale)!;
  if (places < APPROX_MIN_DIGITS || exact.den <= APPROX_MAX_DEN) return exact;
  for (let q = 2n; q <= APPROX_MAX_DEN; q++) {
    const below = (x * q) / scale;
    for (const p of [below, below + 1n]) {
      const truncated = (p * scale) / q;
      const rounded = (2n * p * scale + q) / (2n * q);
      if (truncated === x || rounded === x) return rational(p, q)!;
    }
  }
  return exact;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Currency signs, before a number or after it ("350$"). */
const CURRENCY = ['\\$', '$', '€', '£'];
/** Units written without a space after the number ("5cm"); with a space any word counts ("18 eggs"). */
const COMPACT_UNITS = new Set([
  'cm',
  'mm',
  'km',
  'm',
  'kg',
  'g',
  'mg',
  'ml',
  'l',
  's',
  'ft',
  'in',
  'yd',
  'mi',
  'lb',
  'lbs',
  'oz',
  'mph',
  'h',
  'hr',
  'hrs',
  'min',
]);
// A unit after a space: words, dots and slashes ("dollars/hour", "sq. ft"), perhaps squared or cubed.
const SPACED_UNIT = /^[A-Za-z][A-Za-z. /]*(?:\^\{?[23]\}?)?$/;
const COMPACT_UNIT = /^([A-Za-z]+)(?:\^\{?[23]\}?)?$/;

/** A cursor over one answer: each reader consumes what it recognises or leaves the position where it was. */
class Scanner {
  readonly s: string;
  i = 0;
  constructor(s: string) {
    this.s = s;
  }
  skipSpaces(): boolean {
    const from = this.i;
    while (isSpace(this.s[this.i])) this.i++;
    return this.i > from;
  }
  eat(word: string): boolean {
    if (!this.s.startsWith(word, this.i)) return false;
    this.i += word.length;
    return true;
  }
  digits(): string {
    const from = this.i;
    while (isDigit(this.s[this.i])) this.i++;
    return this.s.slice(from, this.i);
  }
  /** -1 for "-", 1 for "+" or nothing. */
  sign(): bigint {
    if (this.eat('-')) return -1n;
    this.eat('+');
    return 1n;
  }
}

/**
 * Digits with optional thousands groups: "1,234,567" or "9 500", groups of exactly three and one separator
 * throughout, so "5,6" is not 56 and "18 2/3" stays a mixed number.
 */
function integerPart(sc: Scanner): string {
  let out = sc.digits();
  if (out.length === 0 || out.length > 3) return out;
  const separator = sc.s[sc.i] === ',' || sc.s[sc.i] === ' ' ? sc.s[sc.i] : '';
  while (separator !== '') {
    const at = sc.i;
    if (!sc.eat(separator)) break;
    const group = sc.digits();
    if (group.length !== 3 || (separator === ' ' && (sc.s[sc.i] === '/' || sc.s[sc.i] === '.'))) {
      sc.i = at;
      break;
    }
    out += group;
  }
  return out;
}

/** An unsigned decimal ("12", "1,234.5", ".5", "5."), with an exponent ("1.5e3", "1.5 \times 10^{3}"); null if none. */
function unsignedDecimal(sc: Scanner): Rational | null {
  const intDigits = integerPart(sc);
  let fracDigits = '';
  const dot = sc.i;
  if (sc.eat('.')) {
    fracDigits = sc.digits();
    if (fracDigits === '' && intDigits === '') {
      sc.i = dot;
      return null;
    }
  }
  if (intDigits === '' && fracDigits === '') return null;
  const value = decimalValue(intDigits, fracDigits);
  const exponent = readExponent(sc);
  if (exponent === 0) return value;
  if (Math.abs(exponent) > MAX_EXPONENT) return null;
  const power = 10n ** BigInt(Math.abs(exponent));
  return exponent > 0 ? rational(value.num * power, value.den) : rational(value.num, value.den * power);
}

/** "e-3", "E3", "\times 10^{3}", "\cdot10^3", "*10^3" after a number: the power of ten, or 0 when none. */
function readExponent(sc: Scanner): number {
  const at = sc.i;
  if (sc.eat('e') || sc.eat('E')) {
    const sign = sc.sign();
    const d = sc.digits();
    if (d !== '' && d.length <= 6) return Number(sign) * Number(d);
    sc.i = at;
    return 0;
  }
  sc.skipSpaces();
  if (sc.eat('\\times') || sc.eat('\\cdot') || sc.eat('*')) {
    sc.skipSpaces();
    if (sc.eat('10^')) {
      const braced = sc.eat('{');
      const sign = sc.sign();
      const d = sc.digits();
      if (d !== '' && d.length <= 6 && (!braced || sc.eat('}'))) return Number(sign) * Number(d);
    }
  }
  sc.i = at;
  return 0;
}

/** One argument of \frac: "{-3}", "{1.5}" or a single digit ("\frac56"). */
function fracArgument(sc: Scanner): Rational | null {
  if (isDigit(sc.s[sc.i])) {
    const d = sc.s[sc.i++];
    return rational(BigInt(d), 1n);
  }
  if (!sc.eat('{')) return null;
  sc.skipSpaces();
  const sign = sc.sign();
  sc.skipSpaces();
  const v = unsignedDecimal(sc);
  sc.skipSpaces();
  if (v === null || !sc.eat('}')) return null;
  return rational(sign * v.num, v.den);
}

function quotient(a: Rational | null, b: Rational | null): Rational | null {
  if (a === null || b === null) return null;
  return rational(a.num * b.den, a.den * b.num);
}

/** "\frac{a}{b}" (\dfrac and \tfrac were made \frac before) or "\frac56". */
function latexFraction(sc: Scanner): Rational | null {
  const at = sc.i;
  if (!sc.eat('\\frac')) return null;
  sc.skipSpaces();
  const a = fracArgument(sc);
  sc.skipSpaces();
  const q = quotient(a, a === null ? null : fracArgument(sc));
  if (q === null) sc.i = at;
  return q;
}

/** A magnitude: "\frac{…}{…}", "a/b", a mixed number ("2 1/2", "2\frac{1}{2}"), or a decimal. */
function magnitude(sc: Scanner): Rational | null {
  const latex = latexFraction(sc);
  if (latex !== null) return latex;
  const start = sc.i;
  const first = unsignedDecimal(sc);
  if (first === null) return null;
  const afterFirst = sc.i;
  // a/b
  sc.skipSpaces();
  if (sc.eat('/')) {
    sc.skipSpaces();
    const q = quotient(first, unsignedDecimal(sc));
    if (q !== null) return q;
  }
  sc.i = afterFirst;
  // A mixed number: a whole number, then a fraction ("2 1/2", "2\frac{1}{2}").
  if (first.den === 1n && isDigit(sc.s[start]) && !sc.s.slice(start, afterFirst).includes(',')) {
    sc.skipSpaces();
    const frac = latexFraction(sc) ?? plainFraction(sc);
    if (frac !== null && frac.num > 0n && frac.num < frac.den) return rational(first.num * frac.den + frac.num, frac.den);
    sc.i = afterFirst;
  }
  return first;
}

/** "1/2" with whole numbers on both sides (the fraction part of a mixed number). */
function plainFraction(sc: Scanner): Rational | null {
  const at = sc.i;
  const a = sc.digits();
  if (a !== '' && sc.eat('/')) {
    const b = sc.digits();
    if (b !== '' && !isDigit(sc.s[sc.i]) && sc.s[sc.i] !== '.') return rational(BigInt(a), BigInt(b));
  }
  sc.i = at;
  return null;
}

/** A base subscript after whole digits ("1011_2", "1011_{2}"): the question names the base, so it is dropped. */
function skipBase(sc: Scanner): void {
  const at = sc.i;
  if (!sc.eat('_')) return;
  const braced = sc.eat('{');
  if (sc.digits() !== '' && (!braced || sc.eat('}'))) return;
  sc.i = at;
}

/** What may follow a number: nothing, "%", or a unit ("18 eggs", "5cm", "5 dollars/hour", "3 m^2"). */
function isUnitTail(rest: string, spaced: boolean): boolean {
  if (rest === '' || rest === '%' || CURRENCY.includes(rest)) return true;
  if (spaced) return SPACED_UNIT.test(rest);
  const m = COMPACT_UNIT.exec(rest);
  return m !== null && COMPACT_UNITS.has(m[1].toLowerCase());
}

/**
 * The exact value of an answer that is one number, or null. Signs before or after a currency sign ("-$40",
 * "$-40"), a percent sign or a unit after it (percent is not divided by 100: a question that asks for a
 * percentage expects the number before the sign, as MATH's grader also drops "%"). Degree marks are removed
 * before this (answerKey's unwrap).
 */
export function parseNumber(text: string): Rational | null {
  const sc = new Scanner(text);
  let sign = sc.sign();
  sc.skipSpaces();
  if (CURRENCY.some((c) => sc.eat(c))) {
    sc.skipSpaces();
    if (sign === 1n) sign = sc.sign();
  }
  const value = magnitude(sc);
  if (value === null) return null;
  if (value.den === 1n && sc.s[sc.i] === '_') skipBase(sc);
  let scaled: Rational | null;
  [scaled, sc.i] = numberWords(text, sc.i, value);
  const spaced = sc.skipSpaces();
  if (scaled === null || !isUnitTail(text.slice(sc.i), spaced)) return null;
  return rational(sign * scaled.num, scaled.den);
}

/**
 * Number tokens in running text: a mixed number ("2 1/2", "2\frac{1}{2}") or a sign, a currency sign,
 * thousands groups, decimals, a "/denominator".
 */
export const NUMBER_TOKEN = /\d+ \d+\/\d+(?![\d.\/])|-?\$?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:\/\d+)?/g;
