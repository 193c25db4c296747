/**
 * A question's answers grouped for its vote: each answer key joins the class of the first earlier key the
 * equality rule (answerEquality.ts) calls equal to it, and votes under that key, so "\frac{x+2}{7}" and
 * "\frac{x}{7}+\frac{2}{7}" are one answer. The rule is transitive on numbers, text and collections of them;
 * on expressions it is equality at fixed points, which chains only for values within 1e-9 of each other.
 * python/eorm/answers/answer_classes.py is the twin. Bounded: a key is compared with at most MAX_COMPARED_CLASSES
 * earlier classes.
 */
import { formsEqual, keyForm } from './answerEquality.ts';
import type { Form } from './answerFormKinds.ts';

export const MAX_COMPARED_CLASSES = 32;

export class AnswerClasses {
  /** Each key seen and its class's key. */
  private readonly seen = new Map<string, string>();
  private readonly classes: Array<{ key: string; form: Form }> = [];

  /** The key `key` votes under: its own, or an earlier equal answer's. */
  classOf(key: string | null): string | null {
    if (key === null) return null;
    const known = this.seen.get(key);
    if (known !== undefined) return known;
    const form = keyForm(key);
    const match = this.classes.slice(0, MAX_COMPARED_CLASSES).find((c) => formsEqual(c.form, form));
    if (match === undefined) this.classes.push({ key, form });
    const joined = match === undefined ? key : match.key;
    this.seen.set(key, joined);
    return joined;
  }
}

/** The keys a question's candidates vote under, in their order. */
export function classKeys(keys: ReadonlyArray<string | null>): Array<string | null> {
  const classes = new AnswerClasses();
  return keys.map((k) => classes.classOf(k));
}
