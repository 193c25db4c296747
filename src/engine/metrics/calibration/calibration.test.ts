import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_RESAMPLES, bootstrapValues, percentile } from '../bootstrap.ts';
import { eceInterval, reliability } from './calibration.ts';
import { calibratedPicks, noisyPicks } from './calibrationCases.ts';

describe('reliability', () => {
  it("bins by predicted probability (1 in the last bin) and weighs each bin's gap by its share of picks", () => {
    const r = reliability([0.05, 0.15, 0.95, 1, 0.55], [0, 1, 1, 1, 0.5]);
    expect(r.bins.length).toBe(10);
    expect(r.bins.map((b) => b.count)).toEqual([1, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(r.bins[9].confidence).toBeCloseTo(0.975, 15);
    expect(r.bins[9].accuracy).toBe(1);
    expect(r.bins[2].confidence).toBeNaN();
    expect(r.bins[2]).toMatchObject({ lo: 0.2, hi: 0.3, count: 0 });
    // |0 − .05|·1 + |1 − .15|·1 + |.5 − .55|·1 + |1 − .975|·2, over 5 picks
    expect(r.ece).toBeCloseTo((0.05 + 0.85 + 0.05 + 0.05) / 5, 15);
  });

  it('perfect calibration has ECE 0; no picks give NaN', () => {
    expect(reliability([0.25, 0.25, 0.25, 0.25], [1, 0, 0, 0]).ece).toBe(0);
    expect(reliability([], []).ece).toBeNaN();
  });
});

/** The resamples' percentile interval of ECE, as eceInterval drew them: what the interval was before it was moved. */
function percentileInterval(probability: number[], correct: number[], seed: number): { lo: number; hi: number } {
  const n = probability.length;
  const values = bootstrapValues(n, BOOTSTRAP_RESAMPLES, seed, (idx) => {
    const picked = Array.from(idx);
    return reliability(
      picked.map((g) => probability[g]),
      picked.map((g) => correct[g]),
    ).ece;
  });
  return { lo: percentile(values, 0.025), hi: percentile(values, 0.975) };
}

describe('eceInterval', () => {
  it('holds the ECE shown beside it where the resamples’ percentile interval lay wholly above it', () => {
    // Every bin exactly calibrated: ECE 0; a resample is calibrated only if all three bins balance at once.
    const { probability, correct } = calibratedPicks();
    const ece = reliability(probability, correct).ece;
    expect(ece).toBe(0);
    const old = percentileInterval(probability, correct, 42);
    expect(old.lo).toBeGreaterThan(ece);
    const ci = eceInterval(probability, correct, BOOTSTRAP_RESAMPLES, 42);
    expect(ci.lo).toBe(0);
    expect(ci.hi).toBeGreaterThan(ece);
  });

  it('is the percentile interval moved by the median bias: the same width, about the estimate, never below 0', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const { probability, correct } = noisyPicks(seed);
      const ece = reliability(probability, correct).ece;
      const ci = eceInterval(probability, correct, BOOTSTRAP_RESAMPLES, seed);
      const old = percentileInterval(probability, correct, seed);
      expect(ci.lo).toBeLessThanOrEqual(ece);
      expect(ci.hi).toBeGreaterThanOrEqual(ece);
      expect(ci.lo).toBeGreaterThanOrEqual(0);
      if (ci.lo > 0) expect(ci.hi - ci.lo).toBeCloseTo(old.hi - old.lo, 12);
      // ECE's resamples sit above it: the old interval's middle was above the figure.
      expect((old.lo + old.hi) / 2).toBeGreaterThan(ece);
    }
  });

  it('no picks: NaN bounds', () => {
    const ci = eceInterval([], [], BOOTSTRAP_RESAMPLES, 1);
    expect(ci.lo).toBeNaN();
    expect(ci.hi).toBeNaN();
  });
});
