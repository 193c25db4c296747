/**
 * The bootstrap of the fitted rules with their fit inside it: an interval over fixed out-of-fold scores
 * leaves out how much the fit itself would change on other questions (under no signal the selector's 95%
 * interval excluded 0 in 8.9% of files). In each resample (the same indices as bootstrap.ts's, so every
 * difference stays paired) the cross-fitting is redone on the resampled questions, each question counted as
 * often as it was drawn, with the report's folds: per fold, the vote's temperature is refitted on the other
 * folds (the log-T grid below: a refit needs the fit, not its last digits) and the selector by
 * REFIT_NEWTON_STEPS Newton steps from the coefficients fitted on every question, then both are scored on the
 * fold. The Python twin (python/eorm/metrics/refit_bootstrap.py) refits in the same order.
 */
import { forEachResample } from './bootstrap.ts';
import { fieldCountOf, pickByFeatures, selectorPenalties, selectorPrior, selectorRows } from './selector.ts';
import type { ScoredGroup } from './summary.ts';
import { TEMPERATURE_MAX, TEMPERATURE_MIN, fitGroup, groupMassNll } from './calibration/temperature.ts';
import { fitLogistic } from './logistic.ts';
import { answerSlots, weightedVotePick } from './vote.ts';

/** Points of the refit's log-T grid, from TEMPERATURE_MIN to TEMPERATURE_MAX (T = 1 falls on the middle one). */
export const REFIT_GRID_POINTS = 97;
/**
 * Newton steps of a refit, from the fit on every question: on both shared files (264 questions, random and
 * informative energies, 1,000 resamples) 3 steps gave every replicate 6 steps give; 2 changed 1 in 4,000.
 */
export const REFIT_NEWTON_STEPS = 3;

export const refitGrid = (): Float64Array => {
  const lo = Math.log(TEMPERATURE_MIN);
  const step = (Math.log(TEMPERATURE_MAX) - lo) / (REFIT_GRID_POINTS - 1);
  return Float64Array.from({ length: REFIT_GRID_POINTS }, (_, k) => Math.exp(lo + k * step));
};

export interface RefitReplicates {
  /** Each resample's mean score of the vote at the refitted temperature, and of the refitted selector. */
  vote: Float64Array;
  selector: Float64Array;
}

/** One resample's multiplicity of each question. */
function multiplicities(idx: Int32Array, n: number): Float64Array {
  const m = new Float64Array(n);
  for (const q of idx) m[q]++;
  return m;
}

/**
 * Replicates of the fitted rules' mean scores over `groups` (non-empty), `fold` the report's folds (K of
 * them), `selectorStart` the selector fitted on every question.
 */
export function refitReplicates(
  groups: ReadonlyArray<ScoredGroup>,
  fold: Int32Array,
  folds: number,
  selectorStart: ArrayLike<number>,
  resamples: number,
  seed: number,
): RefitReplicates {
  const n = groups.length;
  const grid = refitGrid();
  const T = grid.length;
  const one = (T - 1) / 2;
  // Per question and grid point: −log M(T) (0 where the question cannot inform T) and the vote's score.
  const nll = new Float64Array(n * T);
  const informs = new Uint8Array(n);
  const voteScore = new Float64Array(n * T);
  groups.forEach((g, q) => {
    const f = fitGroup(g);
    informs[q] = f ? 1 : 0;
    const slots = answerSlots(g.answers, g.labels);
    for (let t = 0; t < T; t++) {
      if (f) nll[q * T + t] = groupMassNll(f, grid[t]);
      voteScore[q * T + t] = weightedVotePick(slots, g.energies, grid[t]).score;
    }
  });
  const rows = selectorRows(groups);
  const penalties = selectorPenalties(fieldCountOf(groups));
  const prior = selectorPrior(fieldCountOf(groups));
  const rowWeights = new Float64Array(rows.y.length);
  const out: RefitReplicates = { vote: new Float64Array(resamples), selector: new Float64Array(resamples) };
  forEachResample(n, resamples, seed, (idx, b) => {
    const m = multiplicities(idx, n);
    // Each fold's summed −log M(T) per grid point, questions in order: a fold's training sum adds the others'.
    const foldNll = new Float64Array(folds * T);
    for (let q = 0; q < n; q++) {
      if (m[q] === 0) continue;
      for (let t = 0; t < T; t++) foldNll[fold[q] * T + t] += m[q] * nll[q * T + t];
    }
    let vote = 0;
    let selector = 0;
    for (let f = 0; f < folds; f++) {
      const train = (q: number) => (fold[q] === f ? 0 : m[q]);
      let best = one;
      let informed = false;
      for (let q = 0; q < n; q++) informed ||= train(q) > 0 && informs[q] === 1;
      if (informed) {
        let bestNll = Infinity;
        for (let t = 0; t < T; t++) {
          let total = 0;
          for (let g = 0; g < folds; g++) if (g !== f) total += foldNll[g * T + t];
          if (total < bestNll) {
            bestNll = total;
            best = t;
          }
        }
      }
      for (let r = 0; r < rowWeights.length; r++) rowWeights[r] = train(rows.question[r]);
      const beta = fitLogistic(rows.x, rows.y, penalties, prior, { weights: rowWeights, start: selectorStart, steps: REFIT_NEWTON_STEPS });
      for (let q = 0; q < n; q++) {
        if (fold[q] !== f || m[q] === 0) continue;
        vote += m[q] * voteScore[q * T + best];
        selector += m[q] * pickByFeatures(rows.features[q], beta).score;
      }
    }
    out.vote[b] = vote / n;
    out.selector[b] = selector / n;
  });
  return out;
}
