/**
 * Final answers for majority voting and labels: the answer a reader takes from a chain of thought
 * (answerExtract.ts) and its canonical key (answerKey.ts), for a candidate and for a gold answer.
 * python/eorm/answers.py is the twin.
 */
import { extractAnswer } from './answerExtract.ts';
import { answerKey } from './answerKey.ts';

export { extractAnswer } from './answerExtract.ts';
export { answerKey, MAX_EXAMINED_CHARS } from './answerKey.ts';

/** The key of the answer extracted from a chain of thought, or null. */
export function textAnswerKey(genText: string): string | null {
  const extracted = extractAnswer(genText);
  return extracted === null ? null : answerKey(extracted);
}

const given = (answerField: string | null): answerField is string => answerField !== null && answerField.trim() !== '';

/** The voting key of a candidate: its `answer` field when given (and not blank), else the answer extracted from its text. */
export function candidateAnswerKey(answerField: string | null, genText: string): string | null {
  return given(answerField) ? answerKey(answerField) : textAnswerKey(genText);
}

/** The voting key and the text's own key (for counting `answer` fields that disagree with the text). */
export function candidateKeys(answerField: string | null, genText: string): { answerKey: string | null; textAnswerKey: string | null } {
  const text = textAnswerKey(genText);
  return { answerKey: given(answerField) ? answerKey(answerField) : text, textAnswerKey: text };
}

// A worked solution (GSM8K's "…\n#### 18", MATH's "…\boxed{18}…") rather than a bare answer.
const WORKED_SOLUTION = /####|\\boxed|\\fbox/;

/** The key of a gold answer: a bare answer as it is ("\frac{3}{4}"), a worked solution by its final answer. */
export function goldAnswerKey(gold: string): string | null {
  return WORKED_SOLUTION.test(gold) ? textAnswerKey(gold) : answerKey(gold);
}

/** Whether a candidate's answer key is the gold answer's (a candidate without an answer is wrong); null without a gold key. */
export function matchesGold(answerKeyOfCandidate: string | null, gold: string | null): boolean | null {
  const g = gold === null ? null : goldAnswerKey(gold);
  if (g === null) return null;
  return answerKeyOfCandidate === g;
}
