/**
 * Exact rationals for answers: numbers as written (answerNumber.ts) and constant expressions evaluated
 * exactly (mathEval.ts), so equal values get one key on both sides. python/eorm/answers/rational.py is the twin.
 * Every operation refuses (null) a result over MAX_BITS: bounded work, whatever the answer says.
 */

/** A reduced fraction: den > 0, gcd(|num|, den) = 1. */
export interface Rational {
  num: bigint;
  den: bigint;
}

/** Larger numerators or denominators are not a final answer a grader compares exactly (and cost big BigInts). */
export const MAX_BITS = 4096;
/** Larger powers are refused before they are computed. */
export const MAX_EXPONENT = 1000;

export const abs = (a: bigint): bigint => (a < 0n ? -a : a);

function gcd(a: bigint, b: bigint): bigint {
  let x = abs(a);
  let y = abs(b);
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

const bits = (a: bigint): number => (a === 0n ? 0 : abs(a).toString(2).length);

export function rational(num: bigint, den: bigint): Rational | null {
  if (den === 0n) return null;
  const sign = den < 0n ? -1n : 1n;
  const g = gcd(num, den);
  return { num: (sign * num) / g, den: (sign * den) / g };
}

/** rational(), refused when a part is over MAX_BITS. */
function bounded(num: bigint, den: bigint): Rational | null {
  const r = rational(num, den);
  return r === null || bits(r.num) > MAX_BITS || bits(r.den) > MAX_BITS ? null : r;
}

export const add = (a: Rational, b: Rational) => bounded(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Rational, b: Rational) => bounded(a.num * b.den - b.num * a.den, a.den * b.den);
export const mul = (a: Rational, b: Rational) => bounded(a.num * b.num, a.den * b.den);
export const div = (a: Rational, b: Rational) => bounded(a.num * b.den, a.den * b.num);

/** a^e for a whole e; null when the result would pass MAX_BITS (judged before computing it) or 0 is inverted. */
export function pow(a: Rational, e: Rational): Rational | null {
  if (e.den !== 1n || abs(e.num) > BigInt(MAX_EXPONENT)) return null;
  const n = Number(abs(e.num));
  // A part of b bits to the n has more than (b − 1)·n bits.
  if ((Math.max(bits(a.num), bits(a.den)) - 1) * n > MAX_BITS) return null;
  const r = bounded(a.num ** BigInt(n), a.den ** BigInt(n));
  return r === null || e.num >= 0n ? r : div({ num: 1n, den: 1n }, r);
}

/** The whole square root of a ≥ 0 when there is one (Newton's method on BigInts), else null. */
function exactSqrt(a: bigint): bigint | null {
  if (a < 0n) return null;
  if (a < 2n) return a;
  let x = 1n << BigInt((bits(a) >> 1) + 1);
  for (;;) {
    const y = (x + a / x) >> 1n;
    if (y >= x) break;
    x = y;
  }
  return x * x === a ? x : null;
}

/** √a when it is rational (√(9/4) = 3/2), else null. */
export function sqrt(a: Rational): Rational | null {
  const n = exactSqrt(a.num);
  const d = n === null ? null : exactSqrt(a.den);
  return n === null || d === null ? null : { num: n, den: d };
}

/** n! for a whole 0 ≤ n ≤ 100. */
export function factorial(a: Rational): Rational | null {
  if (a.den !== 1n || a.num < 0n || a.num > 100n) return null;
  let out = 1n;
  for (let k = 2n; k <= a.num; k++) out *= k;
  return { num: out, den: 1n };
}

/** The nearest double: both parts are rounded to doubles, then divided (the same steps in Python). */
export function toDouble(r: Rational): number {
  return Number(r.num) / Number(r.den);
}

/**
 * The key of a number: an integer ("18", "-40"), a terminating decimal ("0.75", "18.5"), else "p/q" ("56/3").
 * One rational has one key, so \frac{3}{4}, 3/4 and 0.75 all read "0.75".
 */
export function rationalKey(r: Rational): string {
  if (r.den === 1n) return r.num.toString();
  let rest = r.den;
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) [rest, twos] = [rest / 2n, twos + 1];
  while (rest % 5n === 0n) [rest, fives] = [rest / 5n, fives + 1];
  if (rest !== 1n) return `${r.num}/${r.den}`;
  const places = Math.max(twos, fives);
  const digits = ((abs(r.num) * 10n ** BigInt(places)) / r.den).toString().padStart(places + 1, '0');
  return `${r.num < 0n ? '-' : ''}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}
