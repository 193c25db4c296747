/**
 * The selector reading numeric fields of the lines besides vote share and energy (issue 42, point 3): the
 * feature itself, its fit out of fold, the recorded map that carries it, and Rerank's use of it.
 */
import { describe, expect, it } from 'vitest';
import { candidateFields } from '../data/candidateFields.ts';
import type { CandidateText } from '../data/types.ts';
import { createRng } from '../shared/rng.ts';
import { readProbabilityMap } from './recordedMap.ts';
import { describeProbabilityMap, rerankAnswers } from './rerankProbability.ts';
import { selectionReport } from './selection.ts';
import { SELECTOR_FEATURES, answerFeatures, fitSelector } from './selector.ts';
import type { ScoredGroup } from './summary.ts';

const D = SELECTOR_FEATURES.length;

/**
 * Questions of 5 candidates over answers "0".."3", "0" right, most candidates wrong (majority vote is often
 * wrong), energies that know nothing, and `told`, a field that leans towards right answers (missing on some lines).
 */
function questions(seed: number, count: number): ScoredGroup[] {
  const r = createRng(seed);
  return Array.from({ length: count }, (_, q) => {
    const answers = Array.from({ length: 5 }, () => String(r.next() < 0.3 ? 0 : 1 + r.int(2)));
    const labels = answers.map((a) => (a === '0' ? 1 : 0));
    const told = Float64Array.from(labels, (l, i) => ((q + i) % 11 === 5 ? NaN : l + 1.2 * r.next()));
    return { energies: Array.from(answers, () => r.next()), labels, answers, fields: [told] };
  });
}

describe('the selector reads named fields of the lines', () => {
  it('adds one feature per field: the mean over the answer of the field standardised within the question, a missing value at the mean', () => {
    const plain = answerFeatures(['a', 'b', 'b'], [0, 1, 2], [1, 0, 0]);
    expect(plain.x.length).toBe(2 * D);
    // told 4, 2, missing: mean 3, sd 1 → +1, −1, 0; answer b averages −1 and 0.
    const { x } = answerFeatures(['a', 'b', 'b'], [0, 1, 2], [1, 0, 0], null, [
      [4, 2, NaN],
      [7, 7, 7],
    ]);
    expect(x.length).toBe(2 * (D + 2));
    expect(Array.from(x.subarray(0, D))).toEqual(Array.from(plain.x.subarray(0, D)));
    expect([x[D], x[D + 1], x[2 * D + 2], x[2 * D + 3]]).toEqual([1, 0, -0.5, 0]);
  });

  it('fits a field that tells right from wrong: a real gain over majority vote where the energy has none', () => {
    const groups = questions(3, 160);
    const beta = fitSelector(groups);
    expect(beta.length).toBe(D + 1);
    expect(beta[D]).toBeGreaterThan(1);
    const withField = selectionReport(groups, { seed: 5, resamples: 400 });
    const selector = withField.versusMajority.find((v) => v.rule === 'selector')!;
    expect(selector.diff).toBeGreaterThan(0.1);
    expect(selector.real).toBe(true);
    // The same questions without the field: the selector has only energies that know nothing.
    const without = selectionReport(
      groups.map(({ fields: _, ...g }) => g),
      { seed: 5, resamples: 400 },
    );
    expect(without.versusMajority.find((v) => v.rule === 'selector')!.real).toBe(false);
    expect(withField.probabilityMap.selector).toHaveLength(D + 1);
  });

  it("reads a named field's values in view order, NaN where a line lacks it, and drops a name no line carries", () => {
    const line = (scores?: Record<string, number>) => ({ scores }) as unknown as CandidateText;
    const groups = [
      { questionId: null, question: 'q', candidates: [line({ told: 1 }), line()] },
      { questionId: null, question: 'r', candidates: [line({ told: 3 })] },
    ];
    const f = candidateFields(groups, ['told', 'stale']);
    expect(f.names).toEqual(['told']);
    expect(Array.from(f.values[0])).toEqual([1, NaN, 3]);
  });

  it('a recorded map names its fields, and its coefficients must match them', () => {
    const map = { temperature: 1, platt: null, use: 'selector' };
    const seven = [0, 5, 0, 0, 0, 0, 2];
    expect(readProbabilityMap({ ...map, selector: seven, selectorFields: ['score'] })?.selectorFields).toEqual(['score']);
    expect(readProbabilityMap({ ...map, selector: seven })).toBeNull();
    expect(readProbabilityMap({ ...map, selector: seven.slice(0, 6), selectorFields: ['score'] })).toBeNull();
    expect(readProbabilityMap({ ...map, selector: [...seven, 1], selectorFields: ['score', 'score'] })).toBeNull();
    // A map recorded before the generator feature (5 coefficients) and before fields reads as before.
    expect(readProbabilityMap({ ...map, selector: [0, 5, 0, 0, 0] })?.selector).toEqual([0, 5, 0, 0, 0, 0]);
  });

  it("Rerank picks by the field where the map's selector weighs it, and reads a missing field as the question's mean", () => {
    const map = readProbabilityMap({ temperature: 1, platt: null, use: 'selector', selector: [0, 1, 0, 0, 0, 0, 4], selectorFields: ['score'] })!;
    const answers = ['7', '7', '9'];
    const energies = [0, 0, 0];
    const picked = (fields?: number[][]) => rerankAnswers(answers, energies, map, { by: 'coefficients', fields }).find((r) => r.picked)!.answer;
    expect(picked([[0, 0, 3]])).toBe('9');
    // Without the field every candidate sits at the mean: the vote share decides.
    expect(picked()).toBe('7');
    // Rerank's pasted answers carry no field, and its note says so.
    expect(describeProbabilityMap(map, { pasted: true })).toMatch(
      /vote share, energy, score\).*pasted answers carry no score: the selector reads each at the question's mean/,
    );
    expect(describeProbabilityMap(map)).not.toMatch(/pasted/);
  });
});
