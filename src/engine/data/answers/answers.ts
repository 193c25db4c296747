/**
 * Final answers for majority voting and labels: the answer a reader takes from a chain of thought
 * (answerExtract.ts), its canonical key (answerKey.ts), for a candidate and for a gold answer, and whether a
 * candidate's answer is the gold answer (the equality rule votes also use: answerEquality.ts).
 * python/eorm/answers/answers.py is the twin.
 */
import { answersEqual } from './answerEquality.ts';
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
/** A longer gold answer is a solution to read the final answer from, not an answer. */
const MAX_BARE_GOLD = 200;

/** The key of a gold answer: a bare answer as it is ("\frac{3}{4}"), a worked solution by its final answer. */
export function goldAnswerKey(gold: string): string | null {
  return WORKED_SOLUTION.test(gold) || gold.length > MAX_BARE_GOLD ? textAnswerKey(gold) : answerKey(gold);
}

/** Whether a candidate's answer key equals the gold answer's (a candidate without an answer is wrong); null without a gold key. */
export function matchesGold(answerKeyOfCandidate: string | null, gold: string | null): boolean | null {
  const g = gold === null ? null : goldAnswerKey(gold);
  if (g === null) return null;
  return answersEqual(answerKeyOfCandidate, g);
}

/** The verdict labels from gold use: whether the candidate (its `answer` field, else its text) gives the gold answer; null without a gold key. */
export function candidateMatchesGold(answerField: string | null, genText: string, gold: string | null): boolean | null {
  return matchesGold(candidateAnswerKey(answerField, genText), gold);
}
