import { describe, expect, it } from 'vitest';
import { lengthBias, lengthRuleScore, lengthSentence, midranks, spearman } from './lengthBias.ts';
import type { ScoredGroup } from './summary.ts';

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
    return group(lengths.map((len, i) => energy(q, i, len)), lengths.map((_, i) => label(q, i)), lengths);
  });

describe('lengthBias', () => {
  // Correctness unrelated to length: the right answer moves round the four lengths.
  const label = (q: number, i: number) => (i === q % 4 ? 1 : 0);

  it('a verifier that gives longer answers lower energy, where correctness does not follow length, leans toward longer ones', () => {
    const b = lengthBias(questions(label, (_q, _i, len) => -len), { seed: 3, figuresOver: 'allQuestions' });
    expect(b.groups).toBe(40);
    expect(b.energyCorr).toBe(-1);
    expect(b.labelCorr).toBeCloseTo(0, 12);
    expect(b.lean).toBeCloseTo(1, 12);
    expect(b.real).toBe(true);
    expect(b.leanCi.lo).toBeGreaterThan(0.5);
    expect(b.sentence).toBe(
      `The verifier leans on length more than correctness does, toward longer answers: over 40 questions, the within-question rank correlation of length with energy is -1.00 (lower energy = preferred) and with being correct +0.00; its lean toward longer answers beyond correctness is +1.00 (95% CI +${b.leanCi.lo.toFixed(2)} to +${b.leanCi.hi.toFixed(2)}).`,
    );
    expect(b.rules.longest.accuracy).toBe(0.25);
    expect(b.allQuestions).toBeUndefined();
  });

  it('the same toward shorter answers says shorter, with the lean and its interval turned round', () => {
    const b = lengthBias(questions(label, (_q, _i, len) => len), { seed: 3, figuresOver: 'allQuestions' });
    expect(b.energyCorr).toBe(1);
    expect(b.real).toBe(true);
    expect(b.sentence).toContain('more than correctness does, toward shorter answers: over 40 questions');
    expect(b.sentence).toContain(`its lean toward shorter answers beyond correctness is +1.00 (95% CI +${(-b.leanCi.hi).toFixed(2)} to +${(-b.leanCi.lo).toFixed(2)}).`);
  });

  it('a verifier that reads correctness only follows length exactly as far as correctness does: no lean', () => {
    // Longer answers are more often right (answers 2 and 3 of most questions); energy = −label, ties within labels.
    const longRight = (q: number, i: number) => (i >= 2 || (q % 5 === 0 && i === 0) ? 1 : 0);
    const b = lengthBias(questions(longRight, (q, i) => -longRight(q, i)), { seed: 3, figuresOver: 'allQuestions' });
    expect(b.labelCorr).toBeGreaterThan(0.3);
    expect(b.energyCorr).toBe(-b.labelCorr);
    expect(b.lean).toBe(0);
    expect(b.leanCi).toEqual({ lo: 0, hi: 0 });
    expect(b.real).toBe(false);
    expect(b.sentence).toMatch(/^The verifier does not lean on length more than correctness does:/);
  });

  it('counts only questions with both labels and two lengths; tied energies count ρ = 0; a validation adds every question', () => {
    const scored = [
      group([1, 2], [1, 0], [5, 9]), // ρ(E) = +1, ρ(label) = −1
      group([3, 3], [0, 1], [4, 8]), // energies tie: ρ(E) = 0; ρ(label) = +1
      group([1, 2], [1, 0], [7, 7]), // one length: no correlation; shortest = longest = 0.5
      group([1, 2], [1, 1], [1, 2]), // one label: not checked, and not reported in a validation
      group([], [], []),
    ];
    const b = lengthBias(scored, { seed: 1, figuresOver: 'bothLabels' });
    expect(b.groups).toBe(2);
    expect(b.energyCorr).toBe(0.5);
    expect(b.labelCorr).toBe(0);
    expect(b.lean).toBe(-0.5);
    expect(b.rules.shortest.accuracy).toBeCloseTo(1.5 / 3, 15);
    expect(b.rules.longest.accuracy).toBeCloseTo(1.5 / 3, 15);
    expect(b.allQuestions).toEqual({ groups: 4, rules: { shortest: 2.5 / 4, longest: 2.5 / 4 } });
    const test = lengthBias(scored, { seed: 1, figuresOver: 'allQuestions' });
    expect(test.groups).toBe(2);
    expect(test.rules.shortest.accuracy).toBe(2.5 / 4);
  });

  it('a figure that rounds to 0.00 reads +0.00, never -0.00', () => {
    const b = lengthBias(questions(label, (_q, _i, len) => -len), { seed: 3, figuresOver: 'allQuestions' });
    expect(lengthSentence({ ...b, labelCorr: -1e-17 })).toContain('with being correct +0.00;');
    expect(lengthSentence({ ...b, labelCorr: -0.006 })).toContain('with being correct -0.01;');
  });

  it('nothing to check: NaN figures and a sentence that says so', () => {
    const b = lengthBias([group([1, 2], [1, 1], [3, 4])], { seed: 1, figuresOver: 'allQuestions' });
    expect(b.groups).toBe(0);
    expect(b.energyCorr).toBeNaN();
    expect(b.real).toBe(false);
    expect(b.sentence).toBe('No question has both a right and a wrong answer with answers of different lengths: nothing to check length against.');
  });
});
