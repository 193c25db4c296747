import { describe, expect, it } from 'vitest';
import { reliability } from './calibration.ts';

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
