import { describe, expect, it } from 'vitest';
import { ruleScore } from './heldOut.ts';
import { singleLabelNote, withSingleLabelNote } from './singleLabel.ts';
import type { ScoredGroup } from './summary.ts';

const group = (labels: number[], answers: Array<string | null>): ScoredGroup => ({ energies: labels.map((_, i) => i), labels, answers });

describe('singleLabelNote', () => {
  it('an all-right question with no final answer: the votes score 0, Best-of-N 1, and the sentence says so', () => {
    const noAnswer = group([1, 1, 1], [null, null, null]);
    // The facts the sentence states, from the rules themselves.
    expect(ruleScore(noAnswer, 'majority', 1)).toBe(0);
    expect(ruleScore(noAnswer, 'weightedVote', 1)).toBe(0);
    expect(ruleScore(noAnswer, 'bestOfN', 1)).toBe(1);
    const note = singleLabelNote([noAnswer, group([1, 1], ['4', null]), group([0, 0], ['3', '5']), group([1, 0], ['4', '3']), group([], [])]);
    expect(note).toEqual({
      questions: 3,
      allRight: 2,
      allWrong: 1,
      allRightNoAnswer: 1,
      sentence:
        'On the other 3 questions (2 with every answer right, 1 with every answer wrong) every rule scores 1 where every answer is right and 0 where every answer is wrong, except on the 1 all-right question with no extractable final answer: there the rules that choose a final answer (the votes) have none to choose and score 0, while those that pick a candidate (Best-of-N, first, random, shortest, longest) score 1.',
    });
  });

  it('with a final answer on every all-right question every rule scores alike', () => {
    const some = group([1, 1], ['4', null]);
    expect(ruleScore(some, 'majority', 1)).toBe(ruleScore(some, 'bestOfN', 1));
    expect(singleLabelNote([some, group([0], [null])]).sentence).toBe(
      'On the other 2 questions (1 with every answer right, 1 with every answer wrong) every rule scores alike: 1 where every answer is right, 0 where every answer is wrong.',
    );
    expect(singleLabelNote([group([1, 0], ['4', '3'])]).sentence).toBe('No question has a single label.');
  });
});

describe('withSingleLabelNote', () => {
  it("adds the note to a validation's report (it has allQuestions), not to a test file's", () => {
    const groups = [group([1, 1], [null, null]), group([1, 0], ['4', '3'])];
    const validation = withSingleLabelNote(groups, { selection: { allQuestions: { groups: 2 } } });
    expect(validation.selection).toEqual({ allQuestions: { groups: 2 }, singleLabel: singleLabelNote(groups) });
    const test = { selection: {} };
    expect(withSingleLabelNote(groups, test)).toBe(test);
  });
});
