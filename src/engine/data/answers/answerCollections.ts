/**
 * Answers of several parts: sets and lists of solutions (any order: "\{3, -2\}", "x=3 or x=-2", "1 and 2"),
 * named tuples ("x=1, y=2": by name), tuples and intervals (by position, brackets kept), unions of them, and
 * matrices. python/eorm/answers/answer_collections.py is the twin. Each level reads its text once.
 */
import { type Form, type Reader, compact } from './answerFormKinds.ts';
import { commandAt, commaOrSemicolon, isEquals, isMathish, isName, orAnd, splitTop, wrapsWhole } from './answerSplit.ts';
import { linearLatex } from './linearLatex.ts';

/** Keys in UTF-16 code-unit order (JS string order; the Python twin sorts the same way). */
const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// "x =", "n=", "\theta =", "x_1 =": a variable before one of several solutions ("x=3 or x=-2").
const VARIABLE_PREFIX = /^(?:[A-Za-z]{1,2}|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*/;

/** "x = 3" → [the name's key, "3"] when the left side is a name and there is one "=" (else "x = 2 = y" stays whole). */
function nameSplit(part: string, depth: number): [string, string] | null {
  const sides = splitTop(part, isEquals);
  return sides.length === 2 && isName(sides[0]) ? [linearLatex(compact(sides[0].trim()), depth), sides[1]] : null;
}

/** One part of a list, without "or"/"and" before it (", and 3"). */
const element = (p: string): string => p.trim().replace(/^(?:or|and)\s+/, '');

/**
 * A list of parts. Distinct names on every part make a named tuple, keyed by name ("x=1,y=2"); else the
 * names go ("x=3, x=-2", "a=4, -8") and the values are a set: sorted, a nested list spliced in.
 */
function listForm(raw: string[], depth: number, read: Reader): Form | null {
  const parts = raw.map(element);
  const named = parts.map((p) => nameSplit(p, depth));
  const names = named.map((n) => (n === null ? null : n[0]));
  if (names.every((n) => n !== null) && new Set(names).size === names.length) {
    const entries: Array<[string, Form | null]> = named.map((n) => [n![0], read(n![1].trim(), depth + 1)]);
    if (entries.some(([, f]) => f === null)) return null;
    entries.sort((a, b) => byKey(a[0], b[0]));
    const key = entries.map(([n, f]) => `${n}=${f!.key}`).join(',');
    return { kind: 'list', key, items: entries.map(([, f]) => f!), names: entries.map(([n]) => n) };
  }
  const items: Form[] = [];
  for (let i = 0; i < parts.length; i++) {
    const f = read(named[i] === null ? parts[i] : named[i]![1].trim(), depth + 1);
    if (f === null) return null;
    if (f.kind === 'list' && f.names === null) items.push(...f.items);
    else items.push(f);
  }
  // A set: each value once ("(3,17,3,7)" listed twice is one solution).
  const distinct = items.sort((a, b) => byKey(a.key, b.key)).filter((f, i) => i === 0 || f.key !== items[i - 1].key);
  return { kind: 'list', key: distinct.map((f) => f.key).join(','), items: distinct, names: null };
}

const MATRIX = /^\\begin\{(pmatrix|bmatrix|Bmatrix|matrix|smallmatrix|array)\}/;
const rowBreak = (s: string, i: number): number => (s[i] === '\\' && s[i + 1] === '\\' ? 2 : 0);
const cellBreak = (s: string, i: number): number => (s[i] === '&' ? 1 : 0);

/** A matrix or vector of any bracket style, keyed as a pmatrix of its entries' keys. */
function matrixForm(t: string, depth: number, read: Reader): Form | null {
  const m = MATRIX.exec(t);
  const end = m === null ? '' : `\\end{${m[1]}}`;
  if (m === null || !t.endsWith(end)) return null;
  let body = t.slice(m[0].length, t.length - end.length);
  if (m[1] === 'array') body = body.replace(/^\s*\{[^{}]*\}/, '');
  const lines = splitTop(body, rowBreak);
  if (lines.length > 1 && lines[lines.length - 1].trim() === '') lines.pop();
  const rows = lines.map((line) => splitTop(line, cellBreak).map((c) => read(c.trim(), depth + 1)));
  if (rows.some((r) => r.length !== rows[0].length || r.some((c) => c === null))) return null;
  const cells = rows as Form[][];
  const key = `\\begin{pmatrix}${cells.map((r) => r.map((c) => c.key).join('&')).join('\\\\')}\\end{pmatrix}`;
  return { kind: 'matrix', key, rows: cells };
}

/** "A \cup B": its pieces in any order. */
function unionForm(t: string, depth: number, read: Reader): Form | null {
  const pieces = splitTop(t, (s, i) => commandAt(s, i, ['cup']));
  if (pieces.length < 2) return null;
  const items = pieces.map((p) => read(p.trim(), depth + 1));
  if (items.some((f) => f === null)) return null;
  const keys = (items as Form[]).map((f) => f.key).sort(byKey);
  // A piece that starts with a letter keeps a space after \cup, so the key reads back as the same command.
  const key = keys.map((k, i) => (i === 0 ? k : /^[A-Za-z]/.test(k) ? `\\cup ${k}` : `\\cup${k}`)).join('');
  return { kind: 'union', key, items: (items as Form[]).sort((a, b) => byKey(a.key, b.key)) };
}

/** The form of a collection, or null when `t` is one part. */
export function collectionForm(t: string, depth: number, read: Reader): Form | null {
  const matrix = matrixForm(t, depth, read);
  if (matrix !== null) return matrix;
  const setOpen = t.startsWith('\\{') && t.endsWith('\\}') ? 2 : t.startsWith('{') && t.endsWith('}') ? 1 : 0;
  if (setOpen > 0 && wrapsWhole(t, setOpen - 1)) {
    const inner = t.slice(setOpen, t.length - setOpen);
    const parts = splitTop(inner, commaOrSemicolon);
    return parts.length === 1 ? read(inner.trim(), depth + 1) : listForm(parts, depth, read);
  }
  const union = unionForm(t, depth, read);
  if (union !== null) return union;
  if ((t[0] === '(' || t[0] === '[') && (t.endsWith(')') || t.endsWith(']')) && wrapsWhole(t, 0)) {
    const parts = splitTop(t.slice(1, -1), commaOrSemicolon);
    if (parts.length === 1) return read(parts[0].trim(), depth + 1);
    const items = parts.map((p) => {
      const named = nameSplit(p, depth);
      return read((named === null ? p : named[1]).trim(), depth + 1);
    });
    if (items.some((f) => f === null)) return null;
    const key = `${t[0]}${(items as Form[]).map((f) => f.key).join(',')}${t[t.length - 1]}`;
    return { kind: 'tuple', key, open: t[0], close: t[t.length - 1], items: items as Form[] };
  }
  const parts: string[] = [];
  for (const part of splitTop(t, commaOrSemicolon)) {
    const solutions = splitTop(element(part), orAnd);
    // " or " / " and " separate solutions between mathematics ("3 hours and 20 minutes" is one answer).
    if (solutions.length > 1 && solutions.every((p) => VARIABLE_PREFIX.test(p.trim()) || isMathish(p))) parts.push(...solutions);
    else parts.push(part);
  }
  return parts.length < 2 ? null : listForm(parts, depth, read);
}
