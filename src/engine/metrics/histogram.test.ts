import { describe, expect, it } from 'vitest';
import { energyHistogram } from './histogram.ts';
import type { ScoredGroup } from './summary.ts';

const G: ScoredGroup[] = [
  { energies: [0.5, 1, 2], labels: [1, 0, 0], answers: [null, null, null] },
  { energies: [1, 0, 3], labels: [1, 0, 0], answers: [null, null, null] },
  { energies: [2, 2], labels: [0, 1], answers: [null, null] },
  { energies: [0.3], labels: [1], answers: [null] },
  { energies: [-1, 4], labels: [0, 0], answers: [null, null] },
];

describe('energyHistogram', () => {
  it('shares edges across labels; max falls in the last bin', () => {
    // range [-1, 4], 5 bins of width 1: edges -1, 0, 1, 2, 3, 4
    // correct   0.5, 1, 2, 0.3      → bins [0,1):2  [1,2):1  [2,3):1
    // incorrect 1, 2, 0, 3, 2, -1, 4 → [-1,0):1 [0,1):1 [1,2):1 [2,3):2 [3,4]:2 (4 = max, last bin)
    const h = energyHistogram(G, 5);
    expect(h.edges).toEqual([-1, 0, 1, 2, 3, 4]);
    expect(h.correct).toEqual([0, 2, 1, 1, 0]);
    expect(h.incorrect).toEqual([1, 1, 1, 2, 2]);
    expect(h.skipped).toBe(0);
  });

  it('one bin holds everything', () => {
    const h = energyHistogram(G, 1);
    expect(h.edges).toEqual([-1, 4]);
    expect(h.correct).toEqual([4]);
    expect(h.incorrect).toEqual([7]);
  });

  it('all-equal energies widen to ±0.5; non-finite energies are skipped and counted', () => {
    const h = energyHistogram([{ energies: [2, 2, NaN, Infinity], labels: [1, 0, 1, 0], answers: [null, null, null, null] }], 2);
    expect(h.edges).toEqual([1.5, 2, 2.5]);
    expect(h.correct).toEqual([0, 1]); // 2 sits on the middle edge → bin [2, 2.5]
    expect(h.incorrect).toEqual([0, 1]);
    expect(h.skipped).toBe(2);
  });

  it('empty input gives [0, 1] edges and zero counts', () => {
    expect(energyHistogram([], 2)).toEqual({ edges: [0, 0.5, 1], correct: [0, 0], incorrect: [0, 0], skipped: 0 });
  });

  it('rejects a non-positive or fractional bin count', () => {
    expect(() => energyHistogram(G, 0)).toThrow(RangeError);
    expect(() => energyHistogram(G, 2.5)).toThrow(RangeError);
  });
});
