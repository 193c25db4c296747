/**
 * Reliability of a probability that a pick is correct: 10 equal bins on [0, 1] (a probability of 1 falls
 * in the last), each with its picks' mean probability and share correct, and the expected calibration
 * error Σ_bins (count / N) · |accuracy − confidence| over the non-empty bins.
 */
import { bootstrapInterval } from '../bootstrap.ts';
import type { Interval, ReliabilityBin } from '../selectionTypes.ts';

export const CALIBRATION_BINS = 10;

export interface Reliability {
  ece: number;
  bins: ReliabilityBin[];
}

/** `probability[g]`: the predicted chance that group g's pick is correct; `correct[g]`: how correct it is (0..1). */
export function reliability(probability: ArrayLike<number>, correct: ArrayLike<number>): Reliability {
  const count = new Array<number>(CALIBRATION_BINS).fill(0);
  const conf = new Array<number>(CALIBRATION_BINS).fill(0);
  const acc = new Array<number>(CALIBRATION_BINS).fill(0);
  for (let g = 0; g < probability.length; g++) {
    const k = Math.min(CALIBRATION_BINS - 1, Math.floor(probability[g] * CALIBRATION_BINS));
    count[k]++;
    conf[k] += probability[g];
    acc[k] += correct[g];
  }
  const n = probability.length;
  let ece = 0;
  const bins: ReliabilityBin[] = count.map((c, k) => {
    const bin = {
      lo: k / CALIBRATION_BINS,
      hi: (k + 1) / CALIBRATION_BINS,
      count: c,
      confidence: c > 0 ? conf[k] / c : NaN,
      accuracy: c > 0 ? acc[k] / c : NaN,
    };
    if (c > 0) ece += (c / n) * Math.abs(bin.accuracy - bin.confidence);
    return bin;
  });
  return { ece: n > 0 ? ece : NaN, bins };
}

/**
 * ECE's 95% bootstrap interval over the same resampled questions as every other interval with this seed,
 * about the ECE of these picks (bootstrap.ts's bootstrapInterval: it holds the figure shown beside it), and
 * never below 0. A bin's weighted gap (count / N) · |accuracy − confidence| is |Σ correct − Σ probability| / N over its picks.
 */
export function eceInterval(probability: ArrayLike<number>, correct: ArrayLike<number>, resamples: number, seed: number): Interval {
  const n = probability.length;
  const bin = Int32Array.from({ length: n }, (_, g) => Math.min(CALIBRATION_BINS - 1, Math.floor(probability[g] * CALIBRATION_BINS)));
  const gap = new Float64Array(CALIBRATION_BINS);
  const ci = bootstrapInterval(reliability(probability, correct).ece, n, resamples, seed, (idx) => {
    gap.fill(0);
    for (const g of idx) gap[bin[g]] += correct[g] - probability[g];
    let ece = 0;
    for (const v of gap) ece += Math.abs(v);
    return ece / n;
  });
  return { lo: ci.lo < 0 ? 0 : ci.lo, hi: ci.hi };
}
