import { describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { bootstrapIntervals, differenceInterval, percentile } from './bootstrap.ts';

describe('percentile', () => {
  it('interpolates linearly between order statistics (numpy default)', () => {
    const x = [1, 2, 3, 4, 5];
    expect(percentile(x, 0)).toBe(1);
    expect(percentile(x, 1)).toBe(5);
    expect(percentile(x, 0.5)).toBe(3);
    expect(percentile(x, 0.1)).toBeCloseTo(1.4, 15);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('bootstrapIntervals', () => {
  const rng = createRng(11);
  const a = Float64Array.from({ length: 400 }, () => (rng.next() < 0.7 ? 1 : 0));
  const b = Float64Array.from({ length: 400 }, () => (rng.next() < 0.5 ? 1 : 0));

  it('brackets the mean; a constant column gives a point; identical columns pair to exactly 0', () => {
    const diff = a.map((x, i) => x - a[i]);
    const [ia, ic, id] = bootstrapIntervals([a, new Float64Array(400).fill(0.25), diff], 1000, 1);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    expect(ia.lo).toBeLessThan(mean);
    expect(ia.hi).toBeGreaterThan(mean);
    // About ±1.96 standard errors: √(0.7·0.3/400) ≈ 0.023.
    expect(ia.hi - ia.lo).toBeGreaterThan(0.06);
    expect(ia.hi - ia.lo).toBeLessThan(0.12);
    expect(ic).toEqual({ lo: 0.25, hi: 0.25 });
    expect(id).toEqual({ lo: 0, hi: 0 });
  });

  it('is seeded: the same seed gives the same intervals, another seed others', () => {
    expect(bootstrapIntervals([a, b], 200, 5)).toEqual(bootstrapIntervals([a, b], 200, 5));
    expect(bootstrapIntervals([a, b], 200, 5)).not.toEqual(bootstrapIntervals([a, b], 200, 6));
  });

  it('a paired difference is tighter than the two marginal intervals suggest when the columns move together', () => {
    const c = a.map((x, i) => (i % 10 === 0 ? 0 : x)); // a, with one in ten set wrong
    const [ia, ic, id] = bootstrapIntervals([a, c, a.map((x, i) => x - c[i])], 1000, 2);
    expect(ia.lo).toBeLessThan(ic.hi); // the marginal intervals overlap
    expect(id.lo).toBeGreaterThan(0); // yet a beats c for real
  });

  it('NaN bounds without groups', () => {
    expect(bootstrapIntervals([new Float64Array(0)], 100, 1)).toEqual([{ lo: NaN, hi: NaN }]);
  });

  it('1,000 resamples of 1,000 groups over nine columns read each score once: a resample only sums', () => {
    const cols = Array.from({ length: 9 }, (_, c) => Float64Array.from({ length: 1000 }, (_, i) => ((i * (c + 3)) % 7) / 7));
    // The columns as arrays that count every score read (not the length).
    let reads = 0;
    const counted = cols.map(
      (c) => new Proxy(Array.from(c), { get: (t, k, r) => (typeof k === 'string' && /^\d+$/.test(k) && reads++, Reflect.get(t, k, r)) }),
    );
    const intervals = bootstrapIntervals(counted, 1000, 42);
    expect(reads).toBe(9 * 1000);
    expect(intervals).toEqual(bootstrapIntervals(cols, 1000, 42));
  });
});

describe('differenceInterval', () => {
  const bound = 1 - 0.025 ** (1 / 145);

  it('where no question differs, spans the exact bound on an unseen differing share, not [0, 0]', () => {
    // 145 questions, none differing: 1 − 0.025^(1/145) ≈ 2.51 points either way.
    const ci = differenceInterval(new Float64Array(1000), new Float64Array(145));
    expect(ci.hi).toBeCloseTo(bound, 15);
    expect(ci.hi).toBeGreaterThan(0.025);
    expect(ci.hi).toBeLessThan(0.026);
    expect(ci.lo).toBe(-ci.hi);
    // A level of 1 − 0.05/4 (the stated verifier gain over four rules) is wider.
    expect(differenceInterval(new Float64Array(1000), new Float64Array(145), 0.05 / 4).hi).toBeGreaterThan(ci.hi);
  });

  it('widens only the side no question moves towards, and is the percentile interval where both are seen', () => {
    const rng = createRng(5);
    const replicates = Float64Array.from({ length: 1000 }, () => 0.04 + 0.01 * (rng.next() - 0.5));
    const wins = new Float64Array(145);
    wins.fill(1, 0, 6);
    const both = Float64Array.from(wins);
    both[7] = -0.5;
    const seen = differenceInterval(replicates, both);
    expect(seen.lo).toBeGreaterThan(0.035);
    expect(seen.hi).toBeLessThan(0.045);
    // Six wins and no loss: a share of worse questions up to the bound is not excluded.
    const winsOnly = differenceInterval(replicates, wins);
    expect(winsOnly.hi).toBe(seen.hi);
    expect(winsOnly.lo).toBeCloseTo(seen.lo - bound, 15);
    // Differences below the paired test's epsilon are no difference.
    expect(
      differenceInterval(
        replicates,
        wins.map((x, i) => (i === 9 ? -1e-13 : x)),
      ),
    ).toEqual(winsOnly);
  });
});
