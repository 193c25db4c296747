/**
 * Energy histogram per label over every candidate, with one set of edges shared by both labels
 * so the two distributions can be drawn on the same axis.
 */
import { assertGroup, type ScoredGroup } from './summary.ts';

export interface EnergyHistogram {
  /** bins + 1 ascending edges; bin k covers [edges[k], edges[k+1]), the last bin also includes its right edge. */
  edges: number[];
  /** Candidates with label 1 per bin. */
  correct: number[];
  /** Candidates with label 0 per bin. */
  incorrect: number[];
  /** Non-finite energies (NaN/±Infinity), left out of the bins. */
  skipped: number;
}

/**
 * Edges span [min, max] of the finite energies. If they are all equal the range is widened to
 * value ± 0.5 (one visible bar, not a zero-width range); with no finite energy it is [0, 1] and all counts are 0.
 * A value that sits exactly on an inner edge may land in the neighbouring bin by float rounding.
 */
export function energyHistogram(groups: ReadonlyArray<ScoredGroup>, bins: number): EnergyHistogram {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`bins must be a positive integer, got ${bins}`);
  let lo = Infinity;
  let hi = -Infinity;
  let skipped = 0;
  groups.forEach((g, gi) => {
    assertGroup(g, gi);
    for (let i = 0; i < g.energies.length; i++) {
      const e = g.energies[i];
      if (!Number.isFinite(e)) skipped++;
      else {
        lo = Math.min(lo, e);
        hi = Math.max(hi, e);
      }
    }
  });
  if (lo > hi) [lo, hi] = [0, 1];
  else if (lo === hi) [lo, hi] = [lo - 0.5, hi + 0.5];
  const span = hi - lo;
  const edges = Array.from({ length: bins + 1 }, (_, k) => (k === bins ? hi : lo + (span * k) / bins));
  const correct = new Array<number>(bins).fill(0);
  const incorrect = new Array<number>(bins).fill(0);
  for (const g of groups) {
    for (let i = 0; i < g.energies.length; i++) {
      const e = g.energies[i];
      if (!Number.isFinite(e)) continue;
      // Multiply before dividing so integer-spaced energies hit their bins exactly; clamp puts max in the last bin.
      const k = Math.min(bins - 1, Math.floor(((e - lo) * bins) / span));
      (g.labels[i] === 1 ? correct : incorrect)[k]++;
    }
  }
  return { edges, correct, incorrect, skipped };
}
