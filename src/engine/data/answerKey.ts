/**
 * The canonical key of a final answer: answers a grader would call equal share a key, different ones do not,
 * so votes cluster as a grader judges them. MATH's `is_equiv` normalisation is the floor (delimiters, \text
 * units, \left/\right, spacing, \dfrac, "x =" prefixes, \sqrt3, a/b); beyond it numbers compare exactly
 * (answerNumber.ts), collections by their elements, words without case. python/eorm/answer_key.py is the twin.
 * Work is linear in the answer (times MAX_DEPTH for nested collections and fractions).
 */
import { NUMBER_TOKEN, parseNumber, rationalKey } from './answerNumber.ts';
import { MAX_DEPTH, linearLatex } from './linearLatex.ts';

/** Longer answers are not final answers: they get no key (no vote). */
export const MAX_EXAMINED_CHARS = 65_536;
/** Nested wrappers stripped at most (`$\boxed{\text{18}}$` has 3): each pass reads the whole answer once. */
const MAX_UNWRAP_PASSES = 8;

/** `$…$`, `$$…$$` (any run of dollars on each side, none inside) → its content. */
function stripDollars(s: string): string {
  let a = 0;
  while (a < s.length && s.charCodeAt(a) === 0x24) a++;
  if (a === 0) return s;
  if (a === s.length) return a >= 2 ? '' : s;
  let b = s.length;
  while (s.charCodeAt(b - 1) === 0x24) b--;
  if (b === s.length) return s;
  const inner = s.slice(a, b);
  return inner.includes('$') ? s : inner;
}

/** Drops trailing sentence punctuation and whitespace ("18. " → "18"); each step removes characters, so it is linear. */
function trimEndPunctuation(s: string): string {
  let end = s.length;
  for (;;) {
    while (end > 0 && /\s/.test(s[end - 1])) end--;
    if (end > 0 && '.,;:'.includes(s[end - 1])) end--;
    else break;
  }
  return s.slice(0, end);
}

/** Markdown emphasis: every `**`, then one `*` or `__` wrapping the whole answer. */
function stripEmphasis(s: string): string {
  const out = s.replaceAll('**', '');
  if (out.length > 2 && ((out.startsWith('*') && out.endsWith('*')) || (out.startsWith('__') && out.endsWith('__')))) {
    const n = out.startsWith('*') ? 1 : 2;
    return out.slice(n, -n);
  }
  return out;
}

const UNWRAP_STEPS: Array<[RegExp, string]> = [
  // A doubled backslash is an escaping slip ("\\frac"), as MATH's normalisation also reads it.
  [/\\\\/g, '\\'],
  [/^\\\((.*)\\\)$/s, '$1'],
  [/^\\\[(.*)\\\]$/s, '$1'],
  [/^\\(?:boxed|fbox)\s*\{(.*)\}$/s, '$1'],
  [/\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mathit|mbox|operatorname)\s*\{([^{}]*)\}/g, '$1'],
  [/\\(?:left|right)\b/g, ''],
  [/\\(?:q?quad|displaystyle)\b/g, ''],
  [/\\[!,;: ]/g, ''],
  [/\{,\}/g, ','],
  [/\\%/g, '%'],
  // Degrees: "90^\circ", "90^{\circ}", "90°" are 90 (an angle's unit is the question's).
  [/\^\s*\{?\s*\\circ\s*\}?/g, ''],
  [/°/g, ''],
  [/\\[dt]frac/g, '\\frac'],
];

/** Strips what does not change an answer: math delimiters, \boxed, \text and friends, emphasis, spacing, degrees. */
function unwrap(raw: string): string {
  let out = raw.replace(/\u2212/g, '-').replace(/π/g, '\\pi').replace(/∞/g, '\\infty').replace(/√/g, '\\sqrt').trim();
  for (let pass = 0; pass < MAX_UNWRAP_PASSES; pass++) {
    const before = out;
    out = stripDollars(stripEmphasis(out));
    for (const [re, to] of UNWRAP_STEPS) out = out.replace(re, to);
    out = trimEndPunctuation(out).trim();
    if (out === before) break;
  }
  return out;
}

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
function splitTop(s: string, sep: (s: string, i: number) => number): string[] {
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

const commaOrSemicolon = (s: string, i: number): number => (s[i] === ',' || s[i] === ';' ? 1 : 0);
/** " or " / " and " between solutions ("x=3 or x=-2"). */
function orAnd(s: string, i: number): number {
  if (!/\s/.test(s[i])) return 0;
  const m = /^\s+(?:or|and)\s+/.exec(s.slice(i, i + 12));
  return m === null ? 0 : m[0].length;
}

/** The closing bracket that matches the opening one at 0 is the last character (so "(1,2)\\cup(3,4)" is not one tuple). */
function wrapsWhole(s: string, openLen: number): boolean {
  return bracketDepths(s).indexOf(0, openLen) === s.length - 1;
}

// "x =", "n=", "\theta =", "x_1 =": a variable before the answer (MATH drops a left side of ≤ 2 characters).
const VARIABLE_PREFIX = /^(?:[A-Za-z]{1,2}|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*/;
const MULTIPLE_CHOICE = [/^\(([A-Ea-e])\)(?:\s|$)/, /^([A-E])\)?$/];
const WORDS = /^[A-Za-z][A-Za-z\s'-]*$/;

/** Strips one "x =" when it is the only "=" (else "x = 2 = y" keeps its meaning as text). */
function stripVariable(s: string): string {
  const m = VARIABLE_PREFIX.exec(s);
  if (m === null) return s;
  const rest = s.slice(m[0].length);
  return rest.includes('=') ? s : rest;
}

/**
 * "9 * 2 = 18" (arithmetic before the last "="): the result. Not an equation with letters ("3x + 2y = 0" is
 * not 0); "x = 3" keeps its variable for stripVariable.
 */
function resultOfWorking(s: string): string {
  const last = s.lastIndexOf('=');
  if (last < 0) return s;
  const working = s.slice(0, last).replace(/\\[A-Za-z]+/g, '');
  if (!/\d/.test(working) || /[A-Za-z]/.test(working)) return s;
  return s.slice(last + 1).trim();
}

function sortedKeys(keys: string[]): string {
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(',');
}

/** Keys of a collection's elements, or null when one has none. */
function elementKeys(parts: string[], depth: number): string[] | null {
  const keys: string[] = [];
  for (const p of parts) {
    const k = scalarOrCollectionKey(stripVariable(p.trim().replace(/^(?:or|and)\s+/, '')), depth + 1);
    if (k === null) return null;
    keys.push(k);
  }
  return keys;
}

/**
 * Tuples and intervals keep their order and brackets: "(1, 2]" → "(1,2]". Sets and lists of solutions are
 * sorted, without brackets, so "\{3, -2\}", "-2, 3" and "x=3 or x=-2" share "-2,3".
 */
function collectionKey(s: string, depth: number): string | null {
  if (depth >= MAX_DEPTH) return null;
  const setOpen = s.startsWith('\\{') && s.endsWith('\\}') ? 2 : s.startsWith('{') && s.endsWith('}') ? 1 : 0;
  if (setOpen > 0 && wrapsWhole(s, setOpen - 1)) {
    const keys = elementKeys(splitTop(s.slice(setOpen, s.length - setOpen), commaOrSemicolon), depth);
    return keys === null ? null : sortedKeys(keys);
  }
  if ((s[0] === '(' || s[0] === '[') && (s.endsWith(')') || s.endsWith(']')) && wrapsWhole(s, 0)) {
    const parts = splitTop(s.slice(1, -1), commaOrSemicolon);
    if (parts.length === 1) return s[0] === '(' && s.endsWith(')') ? scalarOrCollectionKey(parts[0].trim(), depth + 1) : null;
    const keys = elementKeys(parts, depth);
    return keys === null ? null : `${s[0]}${keys.join(',')}${s[s.length - 1]}`;
  }
  const parts: string[] = [];
  for (const part of splitTop(s, commaOrSemicolon)) {
    const solutions = splitTop(part, orAnd);
    // " or " / " and " separate solutions only between "x = …" forms ("3 hours and 20 minutes" is one answer).
    if (solutions.length > 1 && solutions.every((p) => VARIABLE_PREFIX.test(p.trim()))) parts.push(...solutions);
    else parts.push(part);
  }
  if (parts.length < 2) return null;
  const keys = elementKeys(parts, depth);
  return keys === null ? null : sortedKeys(keys);
}

/** Words are compared without case or spaces ("Monday" → "monday"); other text as one linear LaTeX spelling. */
function textKey(t: string, depth: number): string | null {
  const text = t.replace(/\s+/g, '');
  if (text === '') return null;
  return WORDS.test(t) && text.length >= 2 ? text.toLowerCase() : linearLatex(text, depth);
}

/**
 * "Janet makes $18 every day": words around exactly one number are the number's surroundings. Not when
 * anything around it is mathematics ("10+John's age" is an expression).
 */
function numberInSentence(s: string): string | null {
  if (!/[A-Za-z]{2,}/.test(s) || /[+*/=^_{}\\<>|]/.test(s.replace(NUMBER_TOKEN, ''))) return null;
  const found = s.match(NUMBER_TOKEN);
  if (found === null || found.length !== 1) return null;
  const n = parseNumber(found[0]);
  return n === null ? null : rationalKey(n);
}

/**
 * Key of one number, expression, tuple, set or list; elements of collections are read by this too. Only a
 * whole answer (depth 0) may be a sentence around its number.
 */
function scalarOrCollectionKey(s: string, depth: number): string | null {
  const t = resultOfWorking(stripVariable(s));
  if (t === '') return null;
  const n = parseNumber(t);
  if (n !== null) return rationalKey(n);
  return collectionKey(t, depth) ?? (depth === 0 ? numberInSentence(t) : null) ?? textKey(t, depth);
}

/**
 * Canonical key of an answer, or null if nothing is left or it is longer than MAX_EXAMINED_CHARS.
 * Numbers: the exact value (answerNumber.ts: "-$40" → "-40", "56/3", \frac{3}{4} and 0.75 → "0.75").
 * Multiple-choice letters: "(B)", "B", "\text{(B)}" → "B". Tuples and intervals keep order, sets and lists of
 * solutions do not. Words: lower case without spaces ("Monday" → "monday"). Other expressions: one linear
 * LaTeX spelling without spaces.
 */
export function answerKey(raw: string): string | null {
  if (raw.length > MAX_EXAMINED_CHARS) return null;
  const s = unwrap(raw);
  if (s === '') return null;
  for (const re of MULTIPLE_CHOICE) {
    const m = re.exec(s);
    if (m !== null) return m[1].toUpperCase();
  }
  return scalarOrCollectionKey(s, 0);
}
