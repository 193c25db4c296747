/**
 * One line of picks.jsonl: a question's pick with its figures (field names in docs/design.md, "Picks").
 * python/eorm/picks.py writes the same fields in the same order.
 */
import type { CandidateText, Group } from '../data/types.ts';
import type { PickRule, QuestionPick } from './picksRule.ts';

export interface PicksRecord {
  /** The question's 0-based position in the input (groups in order of first appearance). */
  group: number;
  questionId: string | null;
  question: string;
  /** The picked candidate's 0-based position in its group, and its text. */
  index: number;
  text: string;
  answer: string | null;
  rule: PickRule;
  probability: number | null;
  runnerUp: string | null;
  runnerUpProbability: number | null;
  /** Every candidate's energy, in group order; null for a non-finite one; empty when no model picked. */
  energies: Array<number | null>;
  /** The picked candidate's label where the input has labels (given or from gold), else null. */
  correct: 0 | 1 | null;
}

const labelOf = (c: CandidateText): 0 | 1 | null => {
  const label = (c as { label?: unknown }).label;
  return label === 0 || label === 1 ? label : null;
};

export function picksRecord(position: number, g: Group<CandidateText>, energies: ArrayLike<number> | null, rule: PickRule, pick: QuestionPick): PicksRecord {
  return {
    group: position,
    questionId: g.questionId,
    question: g.question,
    index: pick.index,
    text: g.candidates[pick.index].genText,
    answer: pick.answer,
    rule,
    probability: pick.probability,
    runnerUp: pick.runnerUp,
    runnerUpProbability: pick.runnerUpProbability,
    energies: energies ? Array.from(energies, (e) => (Number.isFinite(e) ? e : null)) : [],
    correct: labelOf(g.candidates[pick.index]),
  };
}

/** Questions picked, how many of them have labels, and how many of those picks are right. */
export interface PicksTally {
  questions: number;
  labelled: number;
  correct: number;
}

export function tallyPicks(tally: PicksTally, records: readonly PicksRecord[]): PicksTally {
  let { questions, labelled, correct } = tally;
  for (const r of records) {
    questions++;
    if (r.correct !== null) {
      labelled++;
      correct += r.correct;
    }
  }
  return { questions, labelled, correct };
}

/** The share of labelled questions picked right; null without labels. */
export const picksAccuracy = (t: PicksTally): number | null => (t.labelled > 0 ? t.correct / t.labelled : null);

export const picksLine = (r: PicksRecord): string => `${JSON.stringify(r)}\n`;
