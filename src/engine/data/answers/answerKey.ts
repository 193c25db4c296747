/**
 * The canonical key of a final answer: answers a grader would call equal share a key where one canonical
 * spelling exists (numbers by exact value, collections by their elements' keys, words without case,
 * expressions as one linear LaTeX), and different ones never do; equal answers written as different
 * expressions are joined by the equality rule (answerEquality.ts). python/eorm/answers/answer_key.py is the twin.
 * Work is linear in the answer (times MAX_DEPTH for nested collections).
 */
import { formOf } from './answerForm.ts';
import { unwrap } from './answerUnwrap.ts';

/** Longer answers are not final answers: they get no key (no vote). */
export const MAX_EXAMINED_CHARS = 65_536;

// "(B)", "B)", "B", "b": a multiple-choice letter, whatever its case.
const MULTIPLE_CHOICE = [/^\(([A-Ea-e])\)(?:\s|$)/, /^([A-Ea-e])\)?$/];

/**
 * Canonical key of an answer, or null if nothing is left or it is longer than MAX_EXAMINED_CHARS.
 * Numbers: the exact value ("-$40" → "-40", "56/3", \frac{3}{4} and 0.75 → "0.75", "2.5 million" →
 * "2500000", "10^{-3}" → "0.001"). Multiple-choice letters: "(b)", "B", "\text{(B)}" → "B". Tuples and
 * intervals keep order, sets and lists of solutions do not; named tuples are keyed by name ("x=1,y=2").
 * Words: lower case without spaces. Other expressions and relations: one linear LaTeX spelling.
 */
export function answerKey(raw: string): string | null {
  if (raw.length > MAX_EXAMINED_CHARS) return null;
  const s = unwrap(raw);
  if (s === '') return null;
  for (const re of MULTIPLE_CHOICE) {
    const m = re.exec(s);
    if (m !== null) return m[1].toUpperCase();
  }
  return formOf(s, 0)?.key ?? null;
}
