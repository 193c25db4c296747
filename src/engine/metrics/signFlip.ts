/**
 * An exact test that a mean of per-question values is not 0: when each value is as likely negative as
 * positive under the null (symmetric about 0, independent across questions), flipping each value's sign at
 * random draws the null distribution of their sum. Unlike a bootstrap interval it holds its level at any
 * number of questions. python/eorm/sign_flip.py is the twin, number for number.
 *
 * Flip order: one createRng(seed) stream; flip b negates value j when rng.int(2) is 1, j = 0..n−1; sums run
 * left to right.
 */
import { createRng } from '../data/rng.ts';

export const SIGN_FLIPS = 1000;

/**
 * A flipped sum within this share of Σ|value| of the observed one counts as reaching it: the same values
 * summed with other signs can differ from it by rounding alone, and a tie must count against the call.
 */
const TIE = 1e-9;

/** Two-sided p-value (1 + #{|flipped sum| ≥ |sum|}) / (1 + flips); NaN without values. */
export function signFlipP(values: ArrayLike<number>, seed: number, flips = SIGN_FLIPS): number {
  const n = values.length;
  if (n === 0 || flips < 1) return NaN;
  let sum = 0;
  let size = 0;
  for (let j = 0; j < n; j++) {
    sum += values[j];
    size += Math.abs(values[j]);
  }
  const reach = Math.abs(sum) - TIE * size;
  const rng = createRng(seed);
  let reached = 0;
  for (let b = 0; b < flips; b++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += rng.int(2) === 1 ? -values[j] : values[j];
    if (Math.abs(s) >= reach) reached++;
  }
  return (1 + reached) / (1 + flips);
}
