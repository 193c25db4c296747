/**
 * What an answer is, read as a grader reads it (answerFormKinds.ts lists the kinds): working and
 * approximations dropped, then a number, a sentence around one number, a collection, a ± pair, a relation,
 * else an expression or text. Its key (answerKey.ts) is the form written one canonical way, and reading a key
 * again gives the same form, so two keys compare as the mathematics they stand for (answerEquality.ts).
 * python/eorm/answers/answer_form.py is the twin. Work is linear in the answer (times MAX_DEPTH for nested collections).
 */
import { collectionForm } from './answerCollections.ts';
import { type Form, type Reader, compact, numberForm } from './answerFormKinds.ts';
import { NUMBER_TOKEN, parseNumber } from './answerNumber.ts';
import { plusMinusForm, relationForm } from './answerRelations.ts';
import { commandAt, isEquals, isName, orAnd, splitTop } from './answerSplit.ts';
import { MAX_DEPTH, linearLatex } from './linearLatex.ts';
import { exactValue, variables } from './mathEval.ts';
import { parseMath } from './mathParse.ts';
import type { Rational } from './rational.ts';

const WORDS = /^[A-Za-z][A-Za-z\s'-]*$/;

/** Words are compared without case or spaces ("Monday" → "monday"); mathematics by its value or its linear LaTeX; else text. */
function expressionForm(t: string, depth: number): Form | null {
  const text = compact(t);
  if (text === '') return null;
  if (WORDS.test(t) && text.length >= 2) return { kind: 'text', key: text.toLowerCase() };
  const key = linearLatex(text, depth);
  const node = parseMath(key);
  if (node === null) return { kind: 'text', key };
  const exact = exactValue(node);
  return exact === null ? { kind: 'expr', key, node } : numberForm(exact);
}

/**
 * "Janet makes $18 every day": words around exactly one number are the number's surroundings. Not when
 * anything around it is mathematics ("10+John's age" is an expression).
 */
function numberInSentence(s: string): Rational | null {
  if (!/[A-Za-z]{2,}/.test(s) || /[+*/=^_{}\\<>|]/.test(s.replace(NUMBER_TOKEN, ''))) return null;
  const found = s.match(NUMBER_TOKEN);
  return found === null || found.length !== 1 ? null : parseNumber(found[0]);
}

/** A comma or semicolon that separates parts: not a thousands comma ("$1,596"). */
const listComma = (s: string, i: number): number => (s[i] === ';' || (s[i] === ',' && !(i > 0 && /^\d,\d{3}(?!\d)/.test(s.slice(i - 1, i + 5)))) ? 1 : 0);

/** Whether text is a constant: a number, or mathematics without variables. */
function constantText(s: string): boolean {
  if (parseNumber(s) !== null) return true;
  const node = parseMath(linearLatex(compact(s), 0));
  return node !== null && variables(node).size === 0;
}

/**
 * Working before the result: "9 * 2 = 18" (arithmetic, then a constant) and chains "x = 5+5+1 = 11" (a
 * constant after the last of two or more "=") give their result. Not an equation ("3x + 2y = 0", "7 = 11a+c"),
 * nor a list ("x = 1, y = 2").
 */
function result(s: string): string {
  const parts = splitTop(s, isEquals);
  if (parts.length < 2 || splitTop(s, listComma).length > 1 || splitTop(s, orAnd).length > 1) return s;
  const last = parts[parts.length - 1].trim();
  if (parts.length > 2) return constantText(last) ? last : s;
  const working = parts[0].replace(/\\[A-Za-z]+/g, '');
  return /\d/.test(working) && !/[A-Za-z]/.test(working) && constantText(last) ? last : s;
}

const APPROX = ['approx'];
const MEMBER = ['in'];

/** "x \approx 11" is 11; "x = 1/3 \approx 0.33" is x = 1/3 (the exact value before the approximation). */
function approximation(s: string): string {
  const parts = splitTop(s, (t, i) => commandAt(t, i, APPROX));
  if (parts.length < 2) return s;
  return parts[0].includes('=') ? parts[0] : parts[parts.length - 1];
}

/** "x \in [-2, 7]" is the set. */
function membership(s: string): string {
  const parts = splitTop(s, (t, i) => commandAt(t, i, MEMBER));
  return parts.length === 2 && isName(parts[0]) ? parts[1] : s;
}

/** The form of an unwrapped answer or of a key, or null when nothing is left. `read` reads its parts (tests count its work). */
export function formOf(s: string, depth: number, read: Reader = formOf): Form | null {
  if (depth >= MAX_DEPTH) return null;
  const t = result(approximation(membership(s.trim())).trim());
  if (t === '') return null;
  const n = parseNumber(t);
  if (n !== null) return numberForm(n);
  const sentence = depth === 0 ? numberInSentence(t) : null;
  if (sentence !== null) return numberForm(sentence);
  return collectionForm(t, depth, read) ?? plusMinusForm(t, depth, read) ?? relationForm(t, depth, read) ?? expressionForm(t, depth);
}
