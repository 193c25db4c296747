/**
 * What the data panel says about the answers of a dataset: how many candidates have an answer the text
 * states, how spread the answers of a question are, how often a line's `answer` field disagrees with its
 * own text, and where given labels disagree with the gold answers (a download lists those lines).
 */
import { answersEqual } from './answerEquality.ts';
import type { Dataset } from '../types.ts';

/** Disagreeing lines kept for the download; the count covers all of them. */
export const MAX_LISTED_DISAGREEMENTS = 10_000;

/** A line whose given label is not what its answer's match with the gold answer says. */
export interface LabelGoldDisagreement {
  /** The file, when several were read together. */
  file?: string;
  line: number;
  questionId: string | null;
  label: 0 | 1;
  answerKey: string | null;
  gold: string;
}

export interface AnswerStats {
  /** Share of candidates whose text states an answer (one extracted from it, with a key). */
  shareWithTextAnswer: number;
  /** Median over questions of the number of distinct answer keys among its candidates. */
  medianDistinctAnswers: number;
  /** Lines whose `answer` field is not equal (answerEquality.ts) to the answer extracted from their text. */
  answerFieldDisagreements: number;
  /** Lines labelled from their gold answer (they gave no label). */
  labelledFromGold: number;
  /** Lines with both a label and a gold answer that has a final answer: where the two can be compared. */
  labelAndGold: number;
  /** Of those, how many disagree ... */
  labelGoldDisagreements: number;
  /** ... and the first MAX_LISTED_DISAGREEMENTS of them. */
  disagreements: LabelGoldDisagreement[];
}

function median(sorted: number[]): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function answerStats(dataset: Dataset): AnswerStats {
  let withText = 0;
  let fieldDisagrees = 0;
  let fromGold = 0;
  let both = 0;
  let disagreeing = 0;
  const disagreements: LabelGoldDisagreement[] = [];
  const distinct: number[] = [];
  for (const g of dataset.groups) {
    const keys = new Set<string>();
    for (const c of g.candidates) {
      if (c.answerKey !== null) keys.add(c.answerKey);
      if (c.textAnswerKey !== null) withText++;
      if (c.answer !== null && c.answer.trim() !== '' && c.answerKey !== c.textAnswerKey && !answersEqual(c.answerKey, c.textAnswerKey)) fieldDisagrees++;
      if (c.labelFromGold) fromGold++;
      else if (c.goldMatch !== null) {
        both++;
        if (c.goldMatch !== (c.label === 1)) {
          disagreeing++;
          if (disagreements.length < MAX_LISTED_DISAGREEMENTS) {
            disagreements.push({
              ...(c.file === undefined ? {} : { file: c.file }),
              line: c.line,
              questionId: g.questionId,
              label: c.label,
              answerKey: c.answerKey,
              gold: c.gold!,
            });
          }
        }
      }
    }
    distinct.push(keys.size);
  }
  distinct.sort((a, b) => a - b);
  return {
    shareWithTextAnswer: withText / Math.max(1, dataset.candidateCount),
    medianDistinctAnswers: median(distinct),
    answerFieldDisagreements: fieldDisagrees,
    labelledFromGold: fromGold,
    labelAndGold: both,
    labelGoldDisagreements: disagreeing,
    disagreements,
  };
}

/** The disagreeing lines as JSONL, one object per line, for the panel's download. */
export function disagreementsJsonl(list: LabelGoldDisagreement[]): string {
  return list
    .map(
      (d) =>
        `${JSON.stringify({ ...(d.file === undefined ? {} : { file: d.file }), line: d.line, question_id: d.questionId, label: d.label, answer_key: d.answerKey, gold: d.gold })}\n`,
    )
    .join('');
}
