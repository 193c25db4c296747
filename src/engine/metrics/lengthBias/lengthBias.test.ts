import { describe, expect, it } from 'vitest';
import { lengthBias, lengthRuleScore, lengthSentence, midranks, spearman, withinLabelSpearman } from './lengthBias.ts';
import type { ScoredGroup } from '../summary.ts';

const group = (energies: number[], labels: number[], lengths: number[]): ScoredGroup => ({ energies, labels, lengths, answers: labels.map(() => null) });

describe('spearman', () => {
  it('is Pearson of midranks: ±1 for monotone pairs, ties share their mean rank', () => {
    expect(Array.from(midranks([5, 1, 5, 3]))).toEqual([3.5, 1, 3.5, 2]);
    expect(Array.from(midranks([Infinity, 2, Infinity]))).toEqual([2.5, 1, 2.5]);
    expect(spearman([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(spearman([1, 2, 3], [30, 20, 10])).toBe(-1);
    // ranks (1,2,3,4) vs (1.5,1.5,3.5,3.5): 4 / √(5·4)
    expect(spearman([1, 2, 3, 4], [0, 0, 1, 1])).toBeCloseTo(4 / Math.sqrt(20), 15);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNaN();
  });

  it('within labels: ranks and centres each label’s answers on their own, then one correlation', () => {
    // Across labels energy falls with length (ρ = −0.6); within each label it rises with it.
    expect(spearman([1, 2, 3, 4], [30, 40, 10, 20])).toBeCloseTo(-0.6, 15);
    expect(withinLabelSpearman([1, 2, 3, 4], [30, 40, 10, 20], [1, 1, 0, 0])).toBe(1);
    // Wrong answers (9, 7) against energies (2, 3): −1; the lone right answer adds nothing.
    expect(withinLabelSpearman([1, 2, 3], [5, 9, 7], [1, 0, 0])).toBe(-1);
    expect(withinLabelSpearman([4, 4, 1, 1], [1, 2, 3, 4], [1, 1, 0, 0])).toBe(0);
    expect(withinLabelSpearman([1, 2, 3], [5, 6, 6], [1, 0, 0])).toBeNaN();
  });
});

describe('length rules', () => {
  it('pick by length alone; tied lengths score the share of correct answers among them', () => {
    const g = group([0, 0, 0], [1, 0, 1], [3, 3, 5]);
    expect(lengthRuleScore(g, 'shortest')).toBe(0.5);
    expect(lengthRuleScore(g, 'longest')).toBe(1);
  });

  it('need the lengths', () => {
    expect(() => lengthRuleScore({ energies: [1], labels: [1], answers: [null] }, 'shortest')).toThrow(/no lengths/);
  });
});

/** 40 questions of 4 answers whose lengths are 10, 20, 30, 40 tokens; `label` and `energy` per (question, answer). */
const questions = (label: (q: number, i: number) => number, energy: (q: number, i: number, len: number) => number): ScoredGroup[] =>
  Array.from({ length: 40 }, (_, q) => {
    const lengths = [10, 20, 30, 40];
    return group(
      lengths.map((len, i) => energy(q, i, len)),
      lengths.map((_, i) => label(q, i)),
      lengths,
    );
  });

describe('lengthBias', () => {
  // Correctness unrelated to length: the right answer moves round the four lengths.
  const label = (q: number, i: number) => (i === q % 4 ? 1 : 0);

  it('a verifier that gives longer answers lower energy, where correctness does not follow length, leans toward longer ones', () => {
    const b = lengthBias(
      questions(label, (_q, _i, len) => -len),
      { seed: 3, figuresOver: 'allQuestions' },
    );
    expect(b.groups).toBe(40);
    expect(b.energyCorr).toBe(-1);
    expect(b.labelCorr).toBeCloseTo(0, 12);
    expect(b.lean).toBeCloseTo(1, 12);
    expect(b.real).toBe(true);
    expect(b.leanCi.lo).toBeGreaterThan(0.5);
    expect(b.sentence).toBe(
      `The verifier leans on length more than correctness does, toward longer answers: over 40 questions, the within-question rank correlation of length with energy is -1.00 (lower energy = preferred) and with being correct +0.00; among answers equally correct, its lean toward longer answers is +1.00 (95% CI +${b.leanCi.lo.toFixed(2)} to +${b.leanCi.hi.toFixed(2)}; sign-flip test p < 0.001).`,
    );
    expect(b.rules.longest.accuracy).toBe(0.25);
    expect(b.allQuestions).toBeUndefined();
  });

  it('the same toward shorter answers says shorter, with the lean and its interval turned round', () => {
    const b = lengthBias(
      questions(label, (_q, _i, len) => len),
      { seed: 3, figuresOver: 'allQuestions' },
    );
    expect(b.energyCorr).toBe(1);
    expect(b.real).toBe(true);
    expect(b.sentence).toContain('more than correctness does, toward shorter answers: over 40 questions');
    expect(b.sentence).toContain(
      `its lean toward shorter answers is +1.00 (95% CI +${(-b.leanCi.hi).toFixed(2)} to +${(-b.leanCi.lo).toFixed(2)}; sign-flip test p < 0.001).`,
    );
  });

  it('a verifier that reads correctness only follows length exactly as far as correctness does: no lean', () => {
    // Longer answers are more often right (answers 2 and 3 of most questions); energy = −label, ties within labels.
    const longRight = (q: number, i: number) => (i >= 2 || (q % 5 === 0 && i === 0) ? 1 : 0);
    const b = lengthBias(
      questions(longRight, (q, i) => -longRight(q, i)),
      { seed: 3, figuresOver: 'allQuestions' },
    );
    expect(b.labelCorr).toBeGreaterThan(0.3);
    expect(b.energyCorr).toBe(-b.labelCorr);
    expect(b.lean).toBe(0);
    expect(b.leanCi).toEqual({ lo: 0, hi: 0 });
    expect(b.real).toBe(false);
    expect(b.sentence).toMatch(/^The verifier does not lean on length more than correctness does:/);
  });

  it('a verifier that reads correctness and ignores length among equally correct answers: no lean, where −ρ(energy) − ρ(label) saw one', () => {
    // Right answers are the longer ones (30, 40 tokens). Energy ranks every right answer first; within each
    // label it follows length in half the questions and goes against it in the other half.
    const labels = [1, 1, 0, 0];
    const lengths = [30, 40, 10, 20];
    const scored = Array.from({ length: 40 }, (_, q) => group(q % 2 === 0 ? [1, 2, 3, 4] : [2, 1, 4, 3], labels, lengths));
    const b = lengthBias(scored, { seed: 3, figuresOver: 'allQuestions' });
    expect(b.groups).toBe(40);
    expect(b.lean).toBe(0);
    expect(b.leanP).toBe(1);
    expect(b.real).toBe(false);
    // The old lean, −ρ(energy, length) − ρ(label, length): −(−0.6 − 1)/2 − 4/√20, toward shorter answers.
    expect(-b.energyCorr - b.labelCorr).toBeCloseTo(0.8 - 4 / Math.sqrt(20), 12);
    expect(b.sentence).toMatch(/^The verifier does not lean on length more than correctness does:/);
  });

  it('counts only questions with both labels and two answers of the same label with different lengths; tied energies count ρ = 0; a validation adds every question', () => {
    const scored = [
      group([1, 2, 3], [1, 0, 0], [5, 9, 7]), // ρ(E) = 0.5, ρ(label) = −1.5/√3; the wrong answers' energies fall with length: lean +1
      group([3, 3, 3], [0, 1, 0], [4, 8, 6]), // energies tie: ρ(E) = 0, lean 0; ρ(label) = +1.5/√3
      group([1, 2, 3], [1, 0, 0], [7, 7, 7]), // one length: not checked; shortest = longest = 1/3
      group([1, 2, 3], [1, 0, 0], [5, 6, 6]), // lengths differ across labels only: not checked
      group([1, 2], [1, 1], [1, 2]), // one label: not checked, and not reported in a validation
      group([], [], []),
    ];
    const b = lengthBias(scored, { seed: 1, figuresOver: 'bothLabels' });
    expect(b.groups).toBe(2);
    expect(b.energyCorr).toBe(0.25);
    expect(b.labelCorr).toBe(0);
    expect(b.lean).toBe(0.5);
    expect(b.rules.shortest.accuracy).toBeCloseTo(7 / 12, 15);
    expect(b.rules.longest.accuracy).toBeCloseTo(1 / 3, 15);
    expect(b.allQuestions!.groups).toBe(5);
    expect(b.allQuestions!.rules.shortest).toBeCloseTo(2 / 3, 15);
    expect(b.allQuestions!.rules.longest).toBeCloseTo(7 / 15, 15);
    const test = lengthBias(scored, { seed: 1, figuresOver: 'allQuestions' });
    expect(test.groups).toBe(2);
    expect(test.rules.shortest.accuracy).toBeCloseTo(2 / 3, 15);
  });

  it('a figure that rounds to 0.00 reads +0.00, never -0.00', () => {
    const b = lengthBias(
      questions(label, (_q, _i, len) => -len),
      { seed: 3, figuresOver: 'allQuestions' },
    );
    expect(lengthSentence({ ...b, labelCorr: -1e-17 })).toContain('with being correct +0.00;');
    expect(lengthSentence({ ...b, labelCorr: -0.006 })).toContain('with being correct -0.01;');
  });

  it('nothing to check: NaN figures and a sentence that says so', () => {
    const b = lengthBias([group([1, 2], [1, 1], [3, 4])], { seed: 1, figuresOver: 'allQuestions' });
    expect(b.groups).toBe(0);
    expect(b.energyCorr).toBeNaN();
    expect(b.real).toBe(false);
    expect(b.sentence).toBe(
      'No question has both a right and a wrong answer and two answers of the same label with different lengths: nothing to check length against.',
    );
  });
});
