/**
 * The fitted rules' intervals with their fit in them, by repeated cross-fitting: a fitted rule's figure
 * depends on how the questions were dealt into folds, which the bootstrap over fixed out-of-fold scores
 * never varies (under no signal: 93.5% coverage on 200 draws of the sample; an outside review had it
 * excluding 0 in 8.9% of files). The questions
 * are dealt again CROSS_FIT_REPEATS times, each rule refitted per fold and scored out of fold, and the
 * spread of its mean over these deals is added to the bootstrap's: each replicate's distance from the
 * estimate is scaled by √(1 + var(deals) / var(replicates)).
 *
 * Refitting inside the bootstrap instead (this file's predecessor) counted the fit twice under no signal:
 * a resample's refit flips the selector's tie-breaks on the very questions it is scored on, whose energies
 * the resample keeps, where new questions would bring new energies; its intervals covered 100% of 200
 * no-signal draws (width 10.9 points against a spread of 2.3), these 96.0% (docs/design.md).
 * The Python twin is python/eorm/metrics/repeated_cross_fit.py.
 */
import { type OutOfFoldScores, outOfFoldScores } from './crossFit.ts';
import { crossFitFolds } from './folds.ts';
import type { ScoredGroup } from './summary.ts';

/** Further deals of the questions into folds. */
export const CROSS_FIT_REPEATS = 10;
/** Deal r's seed: the report's seed plus (r + 1) times this, modulo 2^32 (the golden ratio's 32-bit fraction). */
const REPEAT_STRIDE = 0x9e3779b9;

export const repeatSeed = (seed: number, r: number): number => (seed + REPEAT_STRIDE * (r + 1)) >>> 0;

/** Each further deal's out-of-fold scores. */
export function repeatedCrossFits(groups: ReadonlyArray<ScoredGroup>, seed: number, repeats = CROSS_FIT_REPEATS): OutOfFoldScores[] {
  return Array.from({ length: repeats }, (_, r) => outOfFoldScores(groups, crossFitFolds(groups.length, repeatSeed(seed, r))));
}

function variance(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) return 0;
  let m = 0;
  for (let i = 0; i < n; i++) m += values[i];
  m /= n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (values[i] - m) ** 2;
  return s / (n - 1);
}

/**
 * `replicates` (a bootstrap's, of a figure estimated at `estimate`) with the spread of `deals` (the same
 * figure under each further deal) added: unchanged where either has none.
 */
export function widenForFit(replicates: Float64Array, estimate: number, deals: ArrayLike<number>): Float64Array {
  const spread = variance(deals);
  const own = variance(replicates);
  if (spread === 0 || own === 0) return replicates;
  const k = Math.sqrt(1 + spread / own);
  return replicates.map((x) => estimate + (x - estimate) * k);
}
