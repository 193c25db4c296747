/**
 * What the questions with a single label (every answer right, or every answer wrong) add to each rule, said
 * in one sentence for Inspect beside a validation's figures over the questions with both labels. On an
 * all-wrong question every rule scores 0. On an all-right one every rule that picks a candidate (Best-of-N,
 * first, random, oracle, shortest, longest) scores 1, and so does every rule that picks a final answer (the
 * votes), unless no candidate has an extractable final answer: then they have nothing to choose from and
 * score 0 (vote.ts). The Python twin is python/eorm/metrics/single_label.py.
 */
import type { ScoredGroup } from './summary.ts';

export interface SingleLabelNote {
  /** Non-empty questions with a single label. */
  questions: number;
  allRight: number;
  allWrong: number;
  /** All-right questions where no candidate has an extracted final answer: the votes score 0 on them. */
  allRightNoAnswer: number;
  sentence: string;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function singleLabelNote(groups: ReadonlyArray<ScoredGroup>): SingleLabelNote {
  let allRight = 0;
  let allWrong = 0;
  let allRightNoAnswer = 0;
  for (const g of groups) {
    const n = g.labels.length;
    let correct = 0;
    for (let i = 0; i < n; i++) correct += g.labels[i];
    if (n === 0 || (correct > 0 && correct < n)) continue;
    if (correct === 0) allWrong++;
    else {
      allRight++;
      if (g.answers.every((a) => a === null)) allRightNoAnswer++;
    }
  }
  const questions = allRight + allWrong;
  const head = `On the other ${plural(questions, 'question', 'questions')} (${allRight} with every answer right, ${allWrong} with every answer wrong)`;
  const sentence =
    questions === 0
      ? 'No question has a single label.'
      : allRightNoAnswer === 0
        ? `${head} every rule scores alike: 1 where every answer is right, 0 where every answer is wrong.`
        : `${head} every rule scores 1 where every answer is right and 0 where every answer is wrong, except on the ${plural(allRightNoAnswer, 'all-right question', 'all-right questions')} with no extractable final answer: there the rules that choose a final answer (the votes) have none to choose and score 0, while those that pick a candidate (Best-of-N, first, random, shortest, longest) score 1.`;
  return { questions, allRight, allWrong, allRightNoAnswer, sentence };
}

/**
 * A validation's figures (those with `allQuestions`) with the note on its single-label questions in the
 * selection report. (Typed by shape: selectionTypes.ts imports SingleLabelNote from here.)
 */
export function withSingleLabelNote<F extends { selection: { allQuestions?: unknown; singleLabel?: SingleLabelNote } }>(
  scored: ReadonlyArray<ScoredGroup>,
  figures: F,
): F {
  return figures.selection.allQuestions ? { ...figures, selection: { ...figures.selection, singleLabel: singleLabelNote(scored) } } : figures;
}
