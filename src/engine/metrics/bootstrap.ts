/**
 * Percentile bootstrap over groups. Every column holds one score per group (a rule's score, or the
 * difference of two rules' scores for a paired comparison); each resample draws G group indices with
 * replacement, and every column is averaged over the same indices, so paired differences stay paired.
 * The scores are computed once; a resample only sums, so 1,000 resamples of 1,000 groups cost a few
 * milliseconds.
 *
 * Resampling order (the Python twin, python/eorm/selection.py, draws the same): one createRng(seed)
 * stream; resample b takes indices rng.int(G) for j = 0..G−1; sums run left to right.
 */
import { createRng } from '../shared/rng.ts';
import { DIFFERENCE_EPSILON } from './pairedTest.ts';

/** A 95% interval (percentile bootstrap over groups, seeded). */
export interface Interval {
  lo: number;
  hi: number;
}

export const BOOTSTRAP_RESAMPLES = 1000;

/** The mean, summed left to right as the Python twin does; NaN when empty. */
export const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length > 0 ? s / xs.length : NaN;
};

/** Linear interpolation between order statistics (numpy's default, R's type 7) of sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const i = Math.floor(h);
  if (i + 1 >= n) return sorted[n - 1];
  return sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]);
}

/** The sorted values of a statistic that is not a mean (e.g. ECE), over the same resampled indices as bootstrapIntervals with this seed. */
export function bootstrapValues(g: number, resamples: number, seed: number, statistic: (idx: Int32Array) => number): Float64Array {
  if (g === 0 || resamples < 1) return new Float64Array(0);
  const values = new Float64Array(resamples);
  forEachResample(g, resamples, seed, (idx, b) => (values[b] = statistic(idx)));
  return values.sort();
}

/**
 * The 95% interval of a statistic that is not a mean, about its `estimate` on the questions themselves: the
 * percentile interval moved by the resamples' median bias, [estimate − (q50 − q2.5), estimate + (q97.5 − q50)].
 * A statistic biased in resamples (ECE: noise only widens a bin's |gap|) has a percentile interval that can
 * lie wholly above its own figure (0.046 beside [0.049, 0.134]); moved, it holds the estimate by construction.
 * The basic bootstrap [2θ − q97.5, 2θ − q2.5] and BC percentiles do not: both miss θ when θ < q2.5.
 */
export function bootstrapInterval(estimate: number, g: number, resamples: number, seed: number, statistic: (idx: Int32Array) => number): Interval {
  const values = bootstrapValues(g, resamples, seed, statistic);
  if (values.length === 0) return { lo: NaN, hi: NaN };
  const mid = percentile(values, 0.5);
  return { lo: estimate - (mid - percentile(values, 0.025)), hi: estimate + (percentile(values, 0.975) - mid) };
}

/** Each resample's indices (g of them, drawn from createRng(seed) in order), handed to `visit` one resample at a time. */
function forEachResample(g: number, resamples: number, seed: number, visit: (idx: Int32Array, b: number) => void): void {
  const rng = createRng(seed);
  const idx = new Int32Array(g);
  for (let b = 0; b < resamples; b++) {
    for (let j = 0; j < g; j++) idx[j] = rng.int(g);
    visit(idx, b);
  }
}

/** Each column's mean in every resample (resample order); empty when there are no groups. */
export function bootstrapReplicates(columns: ReadonlyArray<ArrayLike<number>>, resamples: number, seed: number): Float64Array[] {
  const g = columns.length > 0 ? columns[0].length : 0;
  if (g === 0 || resamples < 1) return columns.map(() => new Float64Array(0));
  const cols = columns.map((c) => Float64Array.from(c));
  const means = columns.map(() => new Float64Array(resamples));
  forEachResample(g, resamples, seed, (idx, b) => {
    for (let c = 0; c < cols.length; c++) {
      const col = cols[c];
      let sum = 0;
      for (let j = 0; j < g; j++) sum += col[idx[j]];
      means[c][b] = sum / g;
    }
  });
  return means;
}

/** The central interval leaving `alpha` of the replicates out (0.05: the 2.5th to the 97.5th percentile); NaN bounds when there are none. */
export function percentileInterval(replicates: ArrayLike<number>, alpha = 0.05): Interval {
  if (replicates.length === 0) return { lo: NaN, hi: NaN };
  const sorted = Float64Array.from(replicates).sort();
  const tail = alpha / 2;
  return { lo: percentile(sorted, tail), hi: percentile(sorted, 1 - tail) };
}

/**
 * A paired difference's interval from its replicates and the per-question differences `d`: the percentile
 * interval, widened by 1 − (α/2)^(1/n) on a side no question moves towards (each moves the difference by at
 * most 1): the exact bound on a share of such questions never seen in n, which no resample can draw. Where
 * none differs the bootstrap alone says [0, 0], a certainty n questions cannot give (docs/design.md).
 */
export function differenceInterval(replicates: ArrayLike<number>, d: ArrayLike<number>, alpha = 0.05): Interval {
  const ci = percentileInterval(replicates, alpha);
  const n = d.length;
  if (n === 0) return ci;
  let better = false;
  let worse = false;
  for (let i = 0; i < n; i++) {
    better ||= d[i] > DIFFERENCE_EPSILON;
    worse ||= d[i] < -DIFFERENCE_EPSILON;
  }
  const unseen = 1 - (alpha / 2) ** (1 / n);
  return { lo: worse ? ci.lo : ci.lo - unseen, hi: better ? ci.hi : ci.hi + unseen };
}

/** The 95% interval of each column's mean; NaN bounds when there are no groups. */
export function bootstrapIntervals(columns: ReadonlyArray<ArrayLike<number>>, resamples: number, seed: number): Interval[] {
  return bootstrapReplicates(columns, resamples, seed).map((m) => percentileInterval(m));
}
