import { describe, expect, it } from 'vitest';
import { bestOfNScore } from './rank.ts';
import { answerMasses, answerSlots, majorityVoteScore, mixedLabelAnswers, weightedVotePick, weightedVoteScore } from './vote.ts';

describe('answerSlots', () => {
  it('lists answers in first-seen order with their votes and correct candidates; null has no slot', () => {
    const s = answerSlots(['b', null, 'a', 'b', 'a', 'b'], [1, 1, 0, 0, 0, 1]);
    expect(Array.from(s.slot)).toEqual([0, -1, 1, 0, 1, 0]);
    expect(s.votes).toEqual([3, 2]);
    expect(s.correct).toEqual([2, 0]);
    expect(mixedLabelAnswers(s)).toBe(1); // 'b' carries both labels
  });
});

describe('majority vote, scored with the tie rule of every rule', () => {
  it('a tie scores the mean over the tied answers, not the first answer seen (regression: it took the first)', () => {
    // 'w' (wrong) and 'r' (right) tie 2–2; 'w' comes first, so the old rule scored 0.
    const answers = ['w', 'r', 'w', 'r'];
    const labels = [0, 1, 0, 1];
    expect(majorityVoteScore(answers, labels)).toBe(0.5);
  });

  it('an answer whose candidates carry both labels counts as its share correct', () => {
    expect(majorityVoteScore(['x', 'x', 'x', 'y'], [1, 0, 0, 1])).toBeCloseTo(1 / 3, 15);
  });

  it('no answer at all scores 0; a unique winner scores its share', () => {
    expect(majorityVoteScore([null, null], [1, 1])).toBe(0);
    expect(majorityVoteScore(['a', 'a', 'b'], [1, 1, 0])).toBe(1);
  });
});

describe('energy-weighted vote', () => {
  const answers = ['a', 'a', 'a', 'b', null];
  const labels = [0, 0, 0, 1, 1];
  // 'a' has three candidates at energy 1, 'b' one at 0, the unanswered one at 0.5.
  const energies = [1, 1, 1, 0, 0.5];

  it('masses are softmax(−E/T) summed per answer, normalised over every candidate (unanswered ones keep theirs)', () => {
    const s = answerSlots(answers, labels);
    const m = answerMasses(s, energies, 1);
    const z = 3 * Math.exp(-1) + 1 + Math.exp(-0.5);
    expect(m[0]).toBeCloseTo((3 * Math.exp(-1)) / z, 15);
    expect(m[1]).toBeCloseTo(1 / z, 15);
    expect(m[0] + m[1]).toBeLessThan(1);
  });

  it('a low temperature follows the lowest energy, a high one the count', () => {
    expect(weightedVoteScore(answers, energies, labels, 0.1)).toBe(1); // 'b' (lowest energy, right)
    expect(weightedVoteScore(answers, energies, labels, 100)).toBe(0); // 'a' (three votes, wrong)
    // At T = 1: 'a' 3e^-1 ≈ 1.10 > 'b' 1.
    expect(weightedVoteScore(answers, energies, labels)).toBe(0);
  });

  it('the probability of the pick is its mass; ties (equal weights) score the mean and keep the same probability', () => {
    const s = answerSlots(['p', 'q'], [1, 0]);
    expect(weightedVotePick(s, [2, 2], 1)).toEqual({ score: 0.5, probability: 0.5 });
    const one = weightedVotePick(answerSlots(['p', 'p', 'q'], [1, 1, 0]), [0, 0, 0], 1);
    expect(one.score).toBe(1);
    expect(one.probability).toBeCloseTo(2 / 3, 15);
  });

  it('weights that differ only in their last bits still tie', () => {
    // 0.1 + 0.2 ≠ 0.3 in binary: the two answers' weights differ by one ulp.
    const s = answerSlots(['p', 'p', 'q'], [1, 1, 0]);
    const e = [-Math.log(0.1), -Math.log(0.2), -Math.log(0.3)];
    const m = answerMasses(s, e, 1);
    expect(m[0]).not.toBe(m[1]);
    expect(weightedVotePick(s, e, 1).score).toBe(0.5);
  });

  it('non-finite energies weigh 0; all non-finite is a plain (majority) vote; no answer scores 0 with probability 0', () => {
    expect(weightedVoteScore(['a', 'b'], [NaN, 3], [1, 0])).toBe(0);
    expect(weightedVoteScore(['a', 'a', 'b'], [NaN, Infinity, -Infinity], [1, 1, 0])).toBe(1);
    expect(weightedVotePick(answerSlots([null], [1]), [0], 1)).toEqual({ score: 0, probability: 0 });
  });

  it('as T → 0 it scores like Best-of-N when every candidate has its own answer', () => {
    const e = [0.3, -0.2, 0.9, -0.1];
    const l = [0, 1, 0, 0];
    expect(weightedVoteScore(['1', '2', '3', '4'], e, l, 0.01)).toBe(bestOfNScore(e, l));
  });
});
