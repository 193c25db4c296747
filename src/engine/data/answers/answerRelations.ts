/**
 * Answers with a relation: "x = 5" and "|AB| = 1" are their value; "y = 2x + 1", "34x+45y-20z+100=0" and
 * "x \geq 5" are relations ("a > b" read as "b < a"); "-2 \le x \le 7" is the interval [-2, 7]. And "1 \pm
 * \sqrt{19}" is the set of its two values. python/eorm/answers/answer_relations.py is the twin.
 */
import { type Form, type Reader, isConstant } from './answerFormKinds.ts';
import { isName, splitTop } from './answerSplit.ts';

/** Relation commands, spelled in keys as ASCII ("<=", "!="). */
const COMMANDS = new Map(Object.entries({ leq: '<=', le: '<=', leqslant: '<=', geq: '>=', ge: '>=', geqslant: '>=', neq: '!=', ne: '!=', lt: '<', gt: '>' }));
const isLetter = (c: string | undefined): boolean => c !== undefined && /[A-Za-z]/.test(c);

/** The relation at i and its length ("<=" in "x<=5", "\geq"), or null; "5!=120" is a factorial. */
function relationAt(s: string, i: number): [string, number] | null {
  const c = s[i];
  if (c === '<' || c === '>') return s[i + 1] === '=' ? [`${c}=`, 2] : [c, 1];
  if (c === '=') return ['=', 1];
  if (c === '!' && s[i + 1] === '=' && !/[\d)}]/.test(s[i - 1] ?? '')) return ['!=', 2];
  if (c !== '\\') return null;
  let j = i + 1;
  while (j < s.length && j - i <= 10 && isLetter(s[j])) j++;
  const op = COMMANDS.get(s.slice(i + 1, j));
  return op === undefined || isLetter(s[j]) ? null : [op, j - i];
}

/** A side of a relation: one value (a number, an expression or text), not a collection. */
function side(s: string, depth: number, read: Reader): Form | null {
  const f = s.trim() === '' ? null : read(s.trim(), depth + 1);
  return f !== null && (f.kind === 'number' || f.kind === 'expr' || f.kind === 'text') ? f : null;
}

const relation = (op: string, lhs: Form, rhs: Form, named: boolean): Form => ({ kind: 'relation', key: `${lhs.key}${op}${rhs.key}`, op, lhs, rhs, named });

/** "a < x \leq b" (or with >) between two constants: the interval. */
function chained(parts: string[], ops: string[], depth: number, read: Reader): Form | null {
  const up = ops.every((o) => o === '<' || o === '<=');
  if (!up && !ops.every((o) => o === '>' || o === '>=')) return null;
  const [low, high] = up ? [parts[0], parts[2]] : [parts[2], parts[0]];
  const [first, second] = up ? ops : [ops[1], ops[0]];
  const a = side(low, depth, read);
  const b = side(high, depth, read);
  if (a === null || b === null || !isConstant(a) || !isConstant(b) || parts[1].trim() === '') return null;
  const [open, close] = [first.length === 1 ? '(' : '[', second.length === 1 ? ')' : ']'];
  return { kind: 'tuple', key: `${open}${a.key},${b.key}${close}`, open, close, items: [a, b] };
}

/** The form of an answer with one relation (or a chain of two inequalities), or null. */
export function relationForm(t: string, depth: number, read: Reader): Form | null {
  const ops: string[] = [];
  const parts = splitTop(t, (s, i) => {
    const r = relationAt(s, i);
    if (r === null) return 0;
    ops.push(r[0]);
    return r[1];
  });
  if (ops.length === 2) return chained(parts, ops, depth, read);
  if (ops.length !== 1) return null;
  let [lhs, rhs] = parts;
  let op = ops[0];
  if (op === '=' && isName(lhs)) {
    const value = rhs.trim() === '' ? null : read(rhs.trim(), depth + 1);
    const name = value === null ? null : read(lhs.trim(), depth + 1);
    if (value === null || name === null) return null;
    return isConstant(value) ? value : relation('=', name, value, true);
  }
  if (op === '>' || op === '>=') [lhs, rhs, op] = [rhs, lhs, op === '>' ? '<' : '<='];
  const a = side(lhs, depth, read);
  const b = side(rhs, depth, read);
  return a === null || b === null ? null : relation(op, a, b, false);
}

const PLUS_MINUS = /\\(?:pm|mp)(?![A-Za-z])/g;

/** "1 \pm \sqrt{19}": the set of its two values; only with one ± (more are not two values). */
export function plusMinusForm(t: string, depth: number, read: Reader): Form | null {
  const found = [...t.matchAll(PLUS_MINUS)];
  if (found.length !== 1) return null;
  const at = found[0].index;
  const [end, plus, minus] = [at + found[0][0].length, t.slice(0, at) + '+', t.slice(0, at) + '-'];
  const a = read(plus + t.slice(end), depth + 1);
  const b = read(minus + t.slice(end), depth + 1);
  if (a === null || b === null) return null;
  const items = [a, b].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return { kind: 'list', key: items.map((f) => f.key).join(','), items, names: null };
}
