import { describe, expect, it } from 'vitest';
import { argminEnergy, bestOfNScore, rankGroup } from './rank.ts';

describe('argminEnergy', () => {
  it('takes the first of tied minima', () => {
    expect(argminEnergy([3, 1, 2, 1])).toBe(1);
  });
  it('single candidate, empty group, NaN', () => {
    expect(argminEnergy([7])).toBe(0);
    expect(argminEnergy([])).toBe(-1);
    expect(argminEnergy([NaN, 2, NaN])).toBe(1); // NaN ranks as +Infinity
    expect(argminEnergy([NaN, NaN])).toBe(0);
    expect(argminEnergy([-Infinity, 2])).toBe(1); // every non-finite energy ranks as +Infinity
  });
});

describe('bestOfNScore', () => {
  it('is the label of a unique minimum, and the share of correct among tied minima', () => {
    expect(bestOfNScore([3, 1, 2], [0, 1, 0])).toBe(1);
    expect(bestOfNScore([3, 1, 2], [1, 0, 1])).toBe(0);
    expect(bestOfNScore([1, 1, 2, 1], [1, 0, 1, 0])).toBeCloseTo(1 / 3, 15);
    expect(bestOfNScore([0, 0], [1, 1])).toBe(1);
  });

  it('ranks non-finite energies last; all non-finite is one tie', () => {
    expect(bestOfNScore([NaN, -Infinity, 4], [1, 1, 0])).toBe(0);
    expect(bestOfNScore([NaN, Infinity, -Infinity, NaN], [1, 0, 0, 0])).toBe(0.25);
    expect(bestOfNScore([], [])).toBeNaN();
  });
});

describe('rankGroup', () => {
  it('orders stably, deltas and shares per candidate', () => {
    // E = [2, 0.5, 2, 1]: ascending 0.5 (1), 1 (3), 2 (0), 2 (2) — the tie keeps 0 before 2.
    const r = rankGroup([2, 0.5, 2, 1]);
    expect(r.order).toEqual([1, 3, 0, 2]);
    expect(r.deltaToBest).toEqual([1.5, 0, 1.5, 0.5]);
    // softmax(−E) = e^{−ΔE}/Z with Z = 1 + 2e^{−1.5} + e^{−0.5} ≈ 1 + 0.446260 + 0.606531 = 2.052791
    const z = 1 + 2 * Math.exp(-1.5) + Math.exp(-0.5);
    expect(r.share[1]).toBeCloseTo(1 / z, 12); // ≈ 0.487141
    expect(r.share[1]).toBeCloseTo(0.487141, 5);
    expect(r.share[0]).toBeCloseTo(Math.exp(-1.5) / z, 12);
    expect(r.share[0]).toBe(r.share[2]);
    expect(r.share.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('is stable for huge energies (no overflow to NaN)', () => {
    // Only differences matter: [1000, 1001] and [-1000, -999] both give 1/(1+e^{-1}) ≈ 0.731059 to the first.
    for (const e of [
      [1000, 1001],
      [-1000, -999],
    ]) {
      const r = rankGroup(e);
      expect(r.share[0]).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
      expect(r.share[1]).toBeCloseTo(Math.exp(-1) / (1 + Math.exp(-1)), 12);
    }
  });

  it('single candidate, empty group, NaN last', () => {
    expect(rankGroup([4.2])).toEqual({ order: [0], deltaToBest: [0], share: [1] });
    expect(rankGroup([])).toEqual({ order: [], deltaToBest: [], share: [] });
    const r = rankGroup([NaN, 1, 0]);
    expect(r.order).toEqual([2, 1, 0]);
    expect(r.deltaToBest[0]).toBeNaN();
    expect(r.share[0]).toBe(0);
    expect(r.share[2]).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    const inf = rankGroup([-Infinity, 2, Infinity]);
    expect(inf.order).toEqual([1, 0, 2]);
    expect(inf.deltaToBest).toEqual([NaN, 0, NaN]);
    expect(inf.share).toEqual([0, 1, 0]);
  });

  it('all energies non-finite: one tie, equal shares', () => {
    expect(rankGroup([NaN, Infinity])).toEqual({ order: [0, 1], deltaToBest: [NaN, NaN], share: [0.5, 0.5] });
  });

  it('accepts typed arrays', () => {
    expect(rankGroup(new Float32Array([0.25, -0.75])).order).toEqual([1, 0]);
  });
});
