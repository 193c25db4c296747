import { describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { SIGN_FLIP_DRAWS, holm, signFlipTest } from './pairedTest.ts';
import { selectionReport } from './selection.ts';
import type { ScoredGroup } from './summary.ts';

/** Two-sided binomial sign test p for w wins of m (no ties), by counting: what the exact sign flip is on ±1 differences. */
function binomialSignP(w: number, m: number): number {
  const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n, k - 1) * (n - k + 1)) / k);
  const extreme = Math.max(w, m - w);
  let tail = 0;
  for (let k = extreme; k <= m; k++) tail += choose(m, k);
  return Math.min(1, (2 * tail) / 2 ** m);
}

describe('signFlipTest', () => {
  it('4 wins and no loss: p = 2/16, whatever else the questions hold', () => {
    expect(signFlipTest([1, 1, 1, 1])).toEqual({ differing: 4, p: 0.125, method: 'exact' });
    expect(signFlipTest([0, 1, 0, 0, 1, 1, 1e-15, 1, 0])).toEqual({ differing: 4, p: 0.125, method: 'exact' });
  });

  it('on ±1 differences it is the exact binomial sign test', () => {
    for (const [w, m] of [
      [5, 5],
      [7, 8],
      [9, 12],
      [3, 10],
      [15, 20],
    ]) {
      const d = [...Array(w).fill(1), ...Array(m - w).fill(-1)];
      expect(signFlipTest(d).p).toBeCloseTo(binomialSignP(w, m), 12);
    }
  });

  it('counts fractional differences (ties scored as shares) by their sums', () => {
    // ±1 ± ½ ± ½: the sums 2, 1, 1, 0, 0, −1, −1, −2; observed 1 + ½ − ½ = 1: six of eight reach |1|.
    expect(signFlipTest([1, 0.5, -0.5]).p).toBe(6 / 8);
  });

  it('beyond 20 differing questions draws from a fixed stream: the same p every time, valid as (1 + extreme)/(1 + draws)', () => {
    const rng = createRng(3);
    const d = Array.from({ length: 60 }, () => (rng.next() < 0.6 ? 1 : -1));
    const a = signFlipTest(d);
    expect(a.method).toBe('drawn');
    expect(signFlipTest(d)).toEqual(a);
    expect(a.p * (1 + SIGN_FLIP_DRAWS)).toBeCloseTo(Math.round(a.p * (1 + SIGN_FLIP_DRAWS)), 9);
    expect(Math.abs(a.p - binomialSignP(d.filter((x) => x > 0).length, 60))).toBeLessThan(0.03);
  });
});

describe('holm', () => {
  it('multiplies the smallest p by the family size, the next by one fewer, never decreasing', () => {
    expect(holm([0.01, 0.04, 0.03, 0.5])).toEqual([0.04, 0.09, 0.09, 0.5]);
    expect(holm([])).toEqual([]);
    expect(holm([0.3])).toEqual([0.3]);
  });
});

/**
 * The outside review's file: 100 questions of answers a, a, b; on 4 of them a is wrong and b, with the lowest
 * energy, is right; on the other 96 every rule agrees (a right, b wrong, b's energy not the lowest).
 */
function fourWins(): ScoredGroup[] {
  return Array.from({ length: 100 }, (_, q) =>
    q < 4 ? { energies: [1, 1, 0], labels: [0, 0, 1], answers: ['a', 'a', 'b'] } : { energies: [0, 0, 1], labels: [1, 1, 0], answers: ['a', 'a', 'b'] },
  );
}

describe('the 4–0 file', () => {
  it('is not called real under any seed: majority vote is recommended', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = selectionReport(fourWins(), { seed, resamples: 200 });
      for (const v of r.versusMajority) expect(v.real).toBe(false);
      expect(r.recommended.rule).toBe('majority');
      const best = r.versusMajority.find((v) => v.rule === 'bestOfN')!;
      expect(best).toMatchObject({ differing: 4, p: 0.125 });
    }
  });
});
