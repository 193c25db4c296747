/**
 * Final answers for majority voting and labels: the answer a reader takes from a chain of thought
 * (answerExtract.ts) and its canonical key (answerKey.ts), for a candidate and for a gold answer.
 * python/eorm/answers.py is the twin.
 */
import { extractAnswer } from './answerExtract.ts';
import { answerKey } from './answerKey.ts';

export { extractAnswer } from './answerExtract.ts';
export { answerKey, MAX_EXAMINED_CHARS } from './answerKey.ts';

/** The voting key of a candidate: its `answer` field when given (and not blank), else the answer extracted from its text. */
export function candidateAnswerKey(answerField: string | null, genText: string): string | null {
  if (answerField !== null && answerField.trim() !== '') return answerKey(answerField);
  const extracted = extractAnswer(genText);
  return extracted === null ? null : answerKey(extracted);
}

// A worked solution (GSM8K's "…\n#### 18", MATH's "…\boxed{18}…") rather than a bare answer.
const WORKED_SOLUTION = /####|\\boxed|\\fbox/;

/** The key of a gold answer: a bare answer as it is ("\frac{3}{4}"), a worked solution by its final answer. */
export function goldAnswerKey(gold: string): string | null {
  if (!WORKED_SOLUTION.test(gold)) return answerKey(gold);
  const extracted = extractAnswer(gold);
  return extracted === null ? null : answerKey(extracted);
}

/** Whether a candidate's answer key is the gold answer's (a candidate without an answer is wrong); null without a gold key. */
export function matchesGold(answerKeyOfCandidate: string | null, gold: string | null): boolean | null {
  const g = gold === null ? null : goldAnswerKey(gold);
  if (g === null) return null;
  return answerKeyOfCandidate === g;
}
