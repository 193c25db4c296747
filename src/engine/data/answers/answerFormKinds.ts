/**
 * The kinds of answer a grader compares: a number, an expression, a relation, a tuple or interval, a list or
 * set (named: "x=1, y=2"), a union, a matrix, or text; each with its canonical key (answerForm.ts reads them).
 * python/eorm/answers/answer_form_kinds.py is the twin.
 */
import { variables } from './mathEval.ts';
import type { MathNode } from './mathParse.ts';
import { type Rational, rationalKey } from './rational.ts';

export type Form =
  | { kind: 'number'; key: string; value: Rational }
  | { kind: 'expr'; key: string; node: MathNode }
  | { kind: 'text'; key: string }
  | { kind: 'tuple'; key: string; open: string; close: string; items: Form[] }
  | { kind: 'list'; key: string; items: Form[]; names: string[] | null }
  | { kind: 'union'; key: string; items: Form[] }
  | { kind: 'matrix'; key: string; rows: Form[][] }
  | { kind: 'relation'; key: string; op: string; lhs: Form; rhs: Form; named: boolean };

/** Reads a part of an answer (an element, a side) one level deeper. */
export type Reader = (s: string, depth: number) => Form | null;

export const numberForm = (value: Rational): Form => ({ kind: 'number', key: rationalKey(value), value });

/** Whether a form has one value whatever its variables: a number, an expression without variables, or a collection of those. */
export function isConstant(f: Form): boolean {
  if (f.kind === 'number') return true;
  if (f.kind === 'expr') return variables(f.node).size === 0;
  if (f.kind === 'tuple' || f.kind === 'list' || f.kind === 'union') return f.items.every(isConstant);
  if (f.kind === 'matrix') return f.rows.every((r) => r.every(isConstant));
  return false;
}

/**
 * Whitespace removed, except that a command and a letter after a space stay apart: "\sin x" → "\sin{x}",
 * "\pi r" → "\pi{r}" (not the commands "\sinx", "\pir").
 */
export function compact(s: string): string {
  let out = '';
  let commandEnd = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && /[A-Za-z]/.test(s[i + 1] ?? '')) {
      let j = i + 1;
      while (j < s.length && /[A-Za-z]/.test(s[j])) j++;
      out += s.slice(i, j);
      commandEnd = out.length;
      i = j - 1;
    } else if (/\s/.test(c)) {
      let j = i;
      while (j < s.length && /\s/.test(s[j])) j++;
      if (commandEnd === out.length && /[A-Za-z]/.test(s[j] ?? '')) {
        out += `{${s[j]}}`;
        j++;
      }
      i = j - 1;
    } else out += c;
  }
  return out;
}
