import { describe, expect, it } from 'vitest';
import { createRng } from '../data/rng.ts';
import { SIGN_FLIPS, signFlipP } from './signFlip.ts';

describe('signFlipP', () => {
  it('four questions all one way: near the exact two-sided p, 2 of the 16 sign patterns, under any seed', () => {
    for (let seed = 0; seed < 20; seed++) {
      const p = signFlipP([1, 1, 1, 1], seed);
      // 1,000 flips estimate 0.125 within ±0.035 (3.3 standard errors); never at the 5% level.
      expect(Math.abs(p - 0.125)).toBeLessThan(0.035);
      expect(p).toBeGreaterThan(0.05);
    }
  });

  it('many questions all one way: the smallest p the flips can give; a sum of 0: every flip reaches it', () => {
    expect(signFlipP(new Array(30).fill(0.3), 1)).toBe(1 / (1 + SIGN_FLIPS));
    expect(signFlipP([1, -1, 0.5, -0.5], 1)).toBe(1);
    expect(signFlipP([0, 0, 0], 1)).toBe(1);
    expect(signFlipP([], 1)).toBeNaN();
  });

  it('a flipped sum equal to the observed one but for rounding reaches it', () => {
    // In decimals 56 of the 64 sign patterns reach |sum| = 0.3; summed in doubles, 12 of them come out below
    // the observed 0.3000000000000002 and would be lost without the tolerance (p 44/64).
    const values = [0.1, 0.2, 0.3, 0.6, -0.6, -0.3];
    const p = signFlipP(values, 5, 20_000);
    expect(Math.abs(p - 56 / 64)).toBeLessThan(0.01);
  });

  it('keeps its level under the null: at most 5% of 400 symmetric samples (beyond Monte-Carlo error) are called', () => {
    const rng = createRng(9);
    let called = 0;
    for (let k = 0; k < 400; k++) {
      const values = Array.from({ length: 50 }, () => 2 * rng.next() - 1);
      if (signFlipP(values, k) <= 0.05) called++;
    }
    expect(called).toBeLessThanOrEqual(28);
    expect(called).toBeGreaterThan(5);
  });
});
