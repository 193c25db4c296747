/**
 * When two answers are equal: the one rule votes (answerClasses.ts) and labels from gold (answers.ts) use.
 * Keys equal, or their forms (answerForm.ts) equal as mathematics: numbers exactly; expressions by value at
 * fixed points (mathEval.ts); relations when lhs − rhs are proportional ("y = 3/4 - x/2" and "2x+4y-3=0"); a
 * named value ("y = 2x+1") and its value; tuples, intervals and matrices item by item; lists and unions in any
 * order; named tuples by name, or by their values against an unnamed list. python/eorm/answers/answer_equality.py is
 * the twin. Bounded: lists past MAX_MATCHED_ITEMS compare by key.
 */
import { formOf } from './answerForm.ts';
import type { Form } from './answerFormKinds.ts';
import { MAX_VARIABLES, compareValues, points, valueAt, variables } from './mathEval.ts';
import type { MathNode } from './mathParse.ts';

/** Longer lists are compared by their keys only: matching them item by item costs their length squared. */
export const MAX_MATCHED_ITEMS = 32;

function nodeOf(f: Form): MathNode | null {
  if (f.kind === 'number') return { op: 'num', value: f.value };
  return f.kind === 'expr' ? f.node : null;
}

function pointsOf(a: MathNode, b: MathNode): Array<Map<string, number>> | null {
  const names = new Set([...variables(a), ...variables(b)]);
  return names.size > MAX_VARIABLES ? null : points([...names]);
}

/** Equal values at every fixed point where either is defined, and at least one such point. */
function sameValues(a: MathNode, b: MathNode): boolean {
  let defined = 0;
  for (const env of pointsOf(a, b) ?? []) {
    const r = compareValues(valueAt(a, env), valueAt(b, env));
    if (r === 'differ') return false;
    if (r === 'same') defined++;
  }
  return defined > 0;
}

const ZERO = 1e-12;

/** a = c·b at every fixed point for one constant c ≠ 0 (c > 0 when `positive`: an inequality keeps its direction). */
function proportional(a: MathNode, b: MathNode, positive: boolean): boolean {
  let ratio: number | null = null;
  let defined = 0;
  for (const env of pointsOf(a, b) ?? []) {
    const [x, y] = [valueAt(a, env), valueAt(b, env)];
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      return false;
    }
    if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
    defined++;
    if (Math.abs(x) <= ZERO || Math.abs(y) <= ZERO) {
      if (Math.abs(x) <= ZERO && Math.abs(y) <= ZERO) continue;
      return false;
    }
    if (ratio === null) ratio = x / y;
    else if (compareValues(x / y, ratio) !== 'same') return false;
  }
  return defined > 0 && (!positive || ratio === null || ratio > 0);
}

function relationsEqual(a: Form & { kind: 'relation' }, b: Form & { kind: 'relation' }): boolean {
  if (a.op !== b.op) return false;
  const [al, ar, bl, br] = [nodeOf(a.lhs), nodeOf(a.rhs), nodeOf(b.lhs), nodeOf(b.rhs)];
  if (al === null || ar === null || bl === null || br === null) return formsEqual(a.lhs, b.lhs) && formsEqual(a.rhs, b.rhs);
  return proportional({ op: 'sub', a: al, b: ar }, { op: 'sub', a: bl, b: br }, a.op !== '=' && a.op !== '!=');
}

const pairwise = (a: Form[], b: Form[]): boolean => a.length === b.length && a.every((x, i) => formsEqual(x, b[i]));

/** Items matched one to one in any order (each to the first equal one not yet taken). */
function sameItems(a: Form[], b: Form[]): boolean {
  if (a.length !== b.length || a.length > MAX_MATCHED_ITEMS) return false;
  const taken = new Array<boolean>(b.length).fill(false);
  return a.every((x) => {
    const j = b.findIndex((y, k) => !taken[k] && formsEqual(x, y));
    if (j >= 0) taken[j] = true;
    return j >= 0;
  });
}

export function formsEqual(a: Form, b: Form): boolean {
  if (a.key === b.key) return true;
  if (a.kind === 'relation' && a.named && b.kind !== 'relation') return formsEqual(a.rhs, b);
  if (b.kind === 'relation' && b.named && a.kind !== 'relation') return formsEqual(a, b.rhs);
  const [na, nb] = [nodeOf(a), nodeOf(b)];
  // Two numbers with different keys differ: a number's key is its exact value.
  if (na !== null && nb !== null) return (a.kind !== 'number' || b.kind !== 'number') && sameValues(na, nb);
  if (a.kind === 'tuple' && b.kind === 'tuple') return a.open === b.open && a.close === b.close && pairwise(a.items, b.items);
  if (a.kind === 'list' && b.kind === 'list') {
    if (a.names !== null && b.names !== null) return a.names.join('\n') === b.names.join('\n') && pairwise(a.items, b.items);
    return sameItems(a.items, b.items);
  }
  if (a.kind === 'union' && b.kind === 'union') return sameItems(a.items, b.items);
  if (a.kind === 'matrix' && b.kind === 'matrix') return a.rows.length === b.rows.length && a.rows.every((r, i) => pairwise(r, b.rows[i]));
  return a.kind === 'relation' && b.kind === 'relation' && relationsEqual(a, b);
}

/**
 * The form a key stands for. A key that does not read back as itself is ambiguous ("32,349", the list of 32
 * and 349, reads as the number 32349) and is compared as written.
 */
export function keyForm(key: string): Form {
  const f = formOf(key, 0);
  return f !== null && f.key === key ? f : { kind: 'text', key };
}

/** Whether two answer keys stand for equal answers; false when either is null. */
export function answersEqual(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  return a === b || formsEqual(keyForm(a), keyForm(b));
}
