/**
 * Values of parsed expressions (mathParse.ts): exact when the expression is a rational constant ("3\cdot4",
 * "10^{-3}", "\sqrt{9/4}"), else doubles at fixed points, so two expressions compare equal as a grader's CAS
 * would find them ("\frac{x}{7}+\frac{2}{7}" and "\frac{x+2}{7}", "\tan^2(y)+1" and "\sec^2(y)").
 * python/eorm/answers/math_eval.py is the twin: the same points and operations, and a tolerance far above the last
 * bits in which V8's Math and libm may differ.
 */
import type { MathNode } from './mathParse.ts';
import { type Rational, add, div, factorial, mul, pow, sqrt, sub, toDouble } from './rational.ts';

/** The exact value of a constant expression with a rational value, or null (variables, π, a root that is irrational …). */
export function exactValue(n: MathNode): Rational | null {
  switch (n.op) {
    case 'num':
      return n.value;
    case 'neg': {
      const a = exactValue(n.a);
      return a === null ? null : { num: -a.num, den: a.den };
    }
    case 'add':
    case 'sub':
    case 'mul':
    case 'div':
    case 'pow': {
      const a = exactValue(n.a);
      const b = a === null ? null : exactValue(n.b);
      if (a === null || b === null) return null;
      return { add, sub, mul, div, pow }[n.op](a, b);
    }
    case 'fn': {
      const a = n.name === 'sqrt' || n.name === 'abs' || n.name === 'fact' ? exactValue(n.a) : null;
      if (a === null) return null;
      if (n.name === 'abs') return { num: a.num < 0n ? -a.num : a.num, den: a.den };
      return n.name === 'sqrt' ? sqrt(a) : factorial(a);
    }
    default:
      return null;
  }
}

/** The variables of an expression, sorted (the order that assigns them their values). */
export function variables(n: MathNode, out = new Set<string>()): Set<string> {
  if (n.op === 'var') out.add(n.name);
  else if ('a' in n) {
    variables(n.a, out);
    if ('b' in n) variables(n.b, out);
  }
  return out;
}

/** A finite operation with a non-finite result is undefined there (NaN): Python raises where JS overflows. */
const defined = (r: number, ...args: number[]): number => (Number.isFinite(r) || !args.every(Number.isFinite) ? r : NaN);

/** a^b where it is one real number (libm and V8 disagree on 1^∞ and 1^NaN: both are undefined here). */
function power(a: number, b: number): number {
  if (Number.isNaN(a) || !Number.isFinite(b) || (a === 0 && b < 0) || (a < 0 && !Number.isInteger(b))) return NaN;
  return defined(Math.pow(a, b), a, b);
}

function root(a: number, n: number): number {
  if (n === 0 || Number.isNaN(n)) return NaN;
  if (a < 0 && Number.isInteger(n) && Math.abs(n % 2) === 1) return -power(-a, 1 / n);
  return power(a, 1 / n);
}

function factorialOf(a: number): number {
  if (!Number.isInteger(a) || a < 0 || a > 170) return NaN;
  let out = 1;
  for (let k = 2; k <= a; k++) out *= k;
  return out;
}

const FUNCTIONS: Record<string, (x: number) => number> = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  sec: (x) => 1 / Math.cos(x),
  csc: (x) => 1 / Math.sin(x),
  cot: (x) => Math.cos(x) / Math.sin(x),
  arcsin: Math.asin,
  arccos: Math.acos,
  arctan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  ln: (x) => (x > 0 ? Math.log(x) : NaN),
  log: (x) => (x > 0 ? Math.log(x) : NaN),
  exp: Math.exp,
  sqrt: (x) => (x >= 0 ? Math.sqrt(x) : NaN),
  abs: Math.abs,
  fact: factorialOf,
};

/** The value at the given values of the variables (NaN where undefined). */
export function valueAt(n: MathNode, env: Map<string, number>): number {
  switch (n.op) {
    case 'num':
      return toDouble(n.value);
    case 'var':
      return env.get(n.name) ?? NaN;
    case 'pi':
      return Math.PI;
    case 'inf':
      return Infinity;
    case 'neg':
      return -valueAt(n.a, env);
    case 'fn': {
      const a = valueAt(n.a, env);
      return defined(FUNCTIONS[n.name](a), a);
    }
    default: {
      const a = valueAt(n.a, env);
      const b = valueAt(n.b, env);
      if (n.op === 'add') return a + b;
      if (n.op === 'sub') return a - b;
      if (n.op === 'mul') return a * b;
      if (n.op === 'div') return b === 0 ? NaN : defined(a / b, a, b);
      if (n.op === 'pow') return power(a, b);
      if (n.op === 'root') return root(a, b);
      return a > 0 && b > 0 && b !== 1 ? defined(Math.log(a) / Math.log(b), a, b) : NaN;
    }
  }
}

/** Where variables are evaluated: point p gives the k-th variable (sorted) BASES[p] + STEPS[p]·k. */
const BASES = [0.6180339887, 1.3247179572, 2.2360679775];
const STEPS = [0.7071067812, 0.5772156649, 0.3010299957];
/** Expressions with more variables are compared by their keys only. */
export const MAX_VARIABLES = 16;

/** The points to evaluate at: one when there are no variables. */
export function points(names: string[]): Array<Map<string, number>> {
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const count = sorted.length === 0 ? 1 : BASES.length;
  return Array.from({ length: count }, (_, p) => new Map(sorted.map((name, k) => [name, BASES[p] + STEPS[p] * k])));
}

/** 'same', 'differ', or 'undefined' (both undefined there: the point says nothing). */
export function compareValues(a: number, b: number): 'same' | 'differ' | 'undefined' {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 'undefined' : 'differ';
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b ? 'same' : 'differ';
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) + 1e-12 ? 'same' : 'differ';
}
