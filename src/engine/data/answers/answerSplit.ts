/**
 * Reading an answer's structure outside brackets: where its top-level separators and relations are, whether
 * one bracket pair wraps it whole, whether a part is a name ("x", "|AB|", "(p,q)") or mathematics rather than
 * words. Every function reads its input once. python/eorm/answers/answer_split.py is the twin.
 */

const isOpen = (c: string) => c === '(' || c === '[' || c === '{';
const isClose = (c: string) => c === ')' || c === ']' || c === '}';

/**
 * The bracket depth after each character: (), [] and {} count, and so do \{ and \} (on their brace; the
 * backslash keeps the depth before it).
 */
function bracketDepths(s: string): Int32Array {
  const d = new Int32Array(s.length);
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && (s[i + 1] === '{' || s[i + 1] === '}')) {
      d[i] = depth;
      depth += s[++i] === '{' ? 1 : -1;
    } else if (isOpen(c)) depth++;
    else if (isClose(c)) depth--;
    d[i] = depth;
  }
  return d;
}

/** Splits at top-level separators (outside brackets). `sep(s, i)` gives the separator's length at i, or 0. */
export function splitTop(s: string, sep: (s: string, i: number) => number): string[] {
  const d = bracketDepths(s);
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    // A character outside brackets that is no bracket itself: the depth is 0 before and after it.
    if ((i === 0 ? 0 : d[i - 1]) !== 0 || d[i] !== 0) continue;
    const n = sep(s, i);
    if (n > 0) {
      parts.push(s.slice(from, i));
      from = i + n;
      i = from - 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** An "=" that is not part of "<=", ">=" or "!=" (nor the first character). */
export const isEquals = (s: string, i: number): number => (s[i] === '=' && !'<>!'.includes(s[i - 1] ?? '') ? 1 : 0);

export const commaOrSemicolon = (s: string, i: number): number => (s[i] === ',' || s[i] === ';' ? 1 : 0);

/** " or " / " and " between solutions ("x=3 or x=-2", "1 and 2"), or written between brackets ("(11,7)or(7,11)"). */
export function orAnd(s: string, i: number): number {
  if (s[i - 1] === ')' && /^(?:or|and)\(/.test(s.slice(i, i + 4))) return s[i] === 'o' ? 2 : 3;
  if (!/\s/.test(s[i])) return 0;
  const m = /^\s+(?:or|and)\s+/.exec(s.slice(i, i + 12));
  return m === null ? 0 : m[0].length;
}

const isLetter = (c: string | undefined): boolean => c !== undefined && /[A-Za-z]/.test(c);

/** A LaTeX command at i that is exactly one of `names` (so "\in" is not the start of "\infty"): its length, or 0. */
export function commandAt(s: string, i: number, names: readonly string[]): number {
  if (s[i] !== '\\') return 0;
  let j = i + 1;
  while (j < s.length && j - i <= 12 && isLetter(s[j])) j++;
  return names.includes(s.slice(i + 1, j)) && !isLetter(s[j]) ? j - i : 0;
}

/** The closing bracket that matches the opening one at 0 is the last character (so "(1,2)\\cup(3,4)" is not one tuple). */
export function wrapsWhole(s: string, openLen: number): boolean {
  return bracketDepths(s).indexOf(0, openLen) === s.length - 1;
}

/**
 * Whether `s` names a quantity rather than computing one: "x", "x_1", "\theta", "|AB|", "f(x)", "A:B",
 * "\frac{NO}{BO}", "(p,q)". Digits in subscripts and brackets are indices; no +, − or relation outside them.
 */
export function isName(raw: string): boolean {
  const s = raw.trim();
  if (s.startsWith('(') && s.endsWith(')') && wrapsWhole(s, 0) && s.includes(',')) {
    return splitTop(s.slice(1, -1), commaOrSemicolon).every(isName);
  }
  const plain = s.replace(/_\{[^{}]*\}|_[A-Za-z0-9]/g, '').replace(/\([^()]*\)/g, '');
  return /[A-Za-z]/.test(plain) && !/[\d+\-*=<>,;]/.test(plain);
}

/**
 * Mathematics rather than words: no run of two letters outside LaTeX commands ("x=3", "-2", "(5,8)"; not
 * "3 hours"), so " and " between such parts separates answers.
 */
export function isMathish(s: string): boolean {
  return !/[A-Za-z]{2,}/.test(s.replace(/\\[A-Za-z]+/g, ''));
}
