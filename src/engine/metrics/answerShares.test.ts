import { describe, expect, it } from 'vitest';
import { answerShares } from './answerShares.ts';
import { applyPlatt } from './calibration/calibrationMap.ts';
import { readProbabilityMap } from './recordedMap.ts';
import { rerankAnswers } from './rerankProbability.ts';

describe('answerShares', () => {
  it('sums softmax(−E/T) per answer, in order of first appearance, candidates by energy', () => {
    const rows = answerShares(['18', '26', '18', null], [0.6, 0, 0.5, 2], 1);
    const w = [Math.exp(-0.6), 1, Math.exp(-0.5), Math.exp(-2)];
    const z = w.reduce((a, b) => a + b);
    expect(rows.map((r) => r.answer)).toEqual(['18', '26', null]); // the no-answer row last
    expect(rows[0].probability).toBeCloseTo((w[0] + w[2]) / z, 12);
    expect(rows[1].probability).toBeCloseTo(w[1] / z, 12);
    expect(rows[2].probability).toBeCloseTo(w[3] / z, 12);
    expect(rows.reduce((a, r) => a + r.probability, 0)).toBeCloseTo(1, 12);
    expect(rows[0].candidates).toEqual([2, 0]);
    expect(rows.filter((r) => r.picked).map((r) => r.answer)).toEqual(['18']);
  });

  it('a higher temperature flattens the shares towards the answer counts', () => {
    const cold = answerShares(['a', 'b', 'b'], [0, 1, 1], 0.1);
    const hot = answerShares(['a', 'b', 'b'], [0, 1, 1], 1000);
    expect(cold[0].picked).toBe(true);
    expect(hot[1].picked).toBe(true);
    expect(hot[1].probability).toBeCloseTo(2 / 3, 3);
  });

  it('at T = 1 picks the heaviest answer by softmax(−E)', () => {
    const answers = ['1', '2', '1', '3', '2'];
    const energies = [0.3, -0.2, 0.9, -1.1, 0.4];
    const pick = answerShares(answers, energies, 1).find((r) => r.picked)!;
    // Masses ∝ e^-0.3 + e^-0.9 ≈ 1.15 ('1'), e^0.2 + e^-0.4 ≈ 1.89 ('2'), e^1.1 ≈ 3.00 ('3').
    expect(pick.answer).toBe('3');
  });

  it('non-finite energies weigh 0; all non-finite is a plain count; null never wins', () => {
    const rows = answerShares(['a', 'b'], [NaN, 0], 1);
    expect(rows[0].probability).toBe(0);
    expect(rows[1].picked).toBe(true);
    const flat = answerShares([null, null, 'x'], [NaN, Infinity, NaN], 1);
    expect(flat.map((r) => r.answer)).toEqual(['x', null]);
    expect(flat[1].probability).toBeCloseTo(2 / 3, 12);
    expect(flat[1].picked).toBe(false);
    expect(flat[0].picked).toBe(true);
  });

  it('rejects a temperature that is not positive', () => {
    expect(() => answerShares(['a'], [0], 0)).toThrow(RangeError);
    expect(() => answerShares(['a'], [0], NaN)).toThrow(RangeError);
  });
});

describe('rerankAnswers: the map an evaluation fitted on held-out questions', () => {
  const answers = ['18', '26', '18', null];
  const energies = [0.6, 0, 0.5, 2];

  it("the share itself without Platt; Platt maps the picked answer's share, the no-answer row keeps its share, the others share the rest in proportion", () => {
    const plain = rerankAnswers(answers, energies, { temperature: 0.5, platt: null, selector: null, use: 'vote' });
    const shares = answerShares(answers, energies, 0.5);
    plain.forEach((r, k) => expect(r.probability).toBeCloseTo(shares[k].probability, 15));
    expect(plain.map((r) => r.picked)).toEqual(shares.map((r) => r.picked));
    const platt = { a: 0.5, b: -0.2 };
    const mapped = rerankAnswers(answers, energies, { temperature: 0.5, platt, selector: null, use: 'vote' });
    const pick = shares.findIndex((r) => r.picked);
    const p = applyPlatt(platt, shares[pick].probability);
    const none = shares.find((r) => r.answer === null)!.probability;
    const others = shares.filter((r, k) => r.answer !== null && k !== pick).reduce((a, r) => a + r.probability, 0);
    shares.forEach((r, k) => {
      const want = k === pick ? p : r.answer === null ? Math.min(none, 1 - p) : ((1 - p - Math.min(none, 1 - p)) * r.probability) / others;
      expect(mapped[k].probability).toBeCloseTo(want, 15);
      expect(mapped[k].picked).toBe(r.picked);
    });
    expect(mapped.reduce((a, r) => a + r.probability, 0)).toBeCloseTo(1, 15);
  });

  it('the selector, when recommended, gives each answer its probability and picks', () => {
    // Only the vote share counts: '18' (2 of 4 candidates) over '26' (1 of 4), whatever the energies say.
    const rows = rerankAnswers(answers, energies, { temperature: 0.1, platt: null, selector: [-1, 4, 0, 0, 0], use: 'selector' });
    const p = 1 / (1 + Math.exp(-(-1 + 4 * 0.5)));
    expect(rows[0].probability).toBeCloseTo(p, 15);
    // The other answer takes what the pick and the no-answer row leave: the figures sum to 1.
    const none = Math.min(answerShares(answers, energies, 0.1)[2].probability, 1 - p);
    expect(rows[2].probability).toBeCloseTo(none, 15);
    expect(rows[1].probability).toBeCloseTo(1 - p - none, 15);
    expect(rows.filter((r) => r.picked).map((r) => r.answer)).toEqual(['18']);
    expect(answerShares(answers, energies, 0.1).find((r) => r.picked)!.answer).toBe('26'); // the vote at that temperature picks the other
  });

  it('reads a recorded map only when it is whole', () => {
    const map = { temperature: 0.4, platt: { a: 1.2, b: 0.1 }, selector: [0, 5, 0, 0, 0, 0.5], use: 'vote' };
    expect(readProbabilityMap(map)).toEqual(map);
    // A selector recorded before the generator feature reads with that coefficient at 0.
    expect(readProbabilityMap({ ...map, selector: [0, 5, 0, 0, 0] })).toEqual({ ...map, selector: [0, 5, 0, 0, 0, 0] });
    expect(readProbabilityMap({ ...map, temperature: 0 })).toBeNull();
    expect(readProbabilityMap({ ...map, selector: [1, 2] })).toBeNull();
    expect(readProbabilityMap({ ...map, platt: { a: 'x', b: 0 } })).toBeNull();
    expect(readProbabilityMap({ ...map, use: 'other' })).toBeNull();
    expect(readProbabilityMap('0.4')).toBeNull();
  });
});
