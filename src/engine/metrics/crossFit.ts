/**
 * Cross-fitting over the evaluated (held-out) questions: the questions are dealt into K folds by a seeded
 * shuffle; for each fold, the vote's temperature, Platt's map of its share and the selector are fitted on
 * the other folds and applied to this one, so every figure that depends on a fit is out of fold. The maps
 * a later use applies (Rerank) are fitted once more on every question. Nothing here ever sees a training
 * question. The Python twin (python/eorm/selection.py, cross_fit) deals the same folds.
 */
import { type PlattMap, applyPlatt, fitPlatt } from './calibration/calibrationMap.ts';
import { CROSS_FIT_FOLDS, crossFitFolds } from './folds.ts';
import { fitSelector, selectorPick } from './selector.ts';
import type { ScoredGroup } from './summary.ts';
import { fitTemperature } from './calibration/temperature.ts';
import { answerSlots, weightedVotePick } from './vote.ts';

/** Fewer questions than this leave folds too small to fit on: the figures stay uncalibrated, and say so. */
export const CROSS_FIT_MIN_QUESTIONS = 20;

/** What is fitted on a set of held-out questions. */
export interface VerifierMaps {
  /** The vote's temperature (temperature.ts); 1 when no question can inform it. */
  temperature: number;
  /** Platt's map of the vote's share of its pick, at that temperature. */
  platt: PlattMap;
  /** The selector's coefficients (selector.ts SELECTOR_FEATURES). */
  selector: Float64Array;
}

export function fitVerifierMaps(groups: ReadonlyArray<ScoredGroup>): VerifierMaps {
  const { temperature } = fitTemperature(groups);
  const share: number[] = [];
  const correct: number[] = [];
  for (const g of groups) {
    const pick = weightedVotePick(answerSlots(g.answers, g.labels), g.energies, temperature);
    share.push(pick.probability);
    correct.push(pick.score);
  }
  return { temperature, platt: fitPlatt(share, correct), selector: fitSelector(groups) };
}

/** Per question, out of fold: the fitted vote's pick (score, share, Platt's probability) and the selector's. */
export interface OutOfFoldScores {
  vote: { score: Float64Array; share: Float64Array; platt: Float64Array };
  selector: { score: Float64Array; probability: Float64Array };
}

export interface OutOfFold extends OutOfFoldScores {
  folds: number;
  /** Fitted on every question: what a later use applies. */
  all: VerifierMaps;
}

/** Cross-fits over `groups` (non-empty ones); a reason in words when there are too few to. */
export function crossFit(groups: ReadonlyArray<ScoredGroup>, seed: number): OutOfFold | { reason: string } {
  const n = groups.length;
  if (n < CROSS_FIT_MIN_QUESTIONS)
    return { reason: `only ${n} held-out question${n === 1 ? '' : 's'} (at least ${CROSS_FIT_MIN_QUESTIONS} are needed to calibrate out of fold)` };
  return { folds: CROSS_FIT_FOLDS, ...outOfFoldScores(groups, crossFitFolds(n, seed)), all: fitVerifierMaps(groups) };
}

/** Each question's scores from the maps fitted on the other folds (`fold`: each question's, 0 to CROSS_FIT_FOLDS − 1). */
export function outOfFoldScores(groups: ReadonlyArray<ScoredGroup>, fold: Int32Array): OutOfFoldScores {
  const n = groups.length;
  const out: OutOfFoldScores = {
    vote: { score: new Float64Array(n), share: new Float64Array(n), platt: new Float64Array(n) },
    selector: { score: new Float64Array(n), probability: new Float64Array(n) },
  };
  for (let f = 0; f < CROSS_FIT_FOLDS; f++) {
    const maps = fitVerifierMaps(groups.filter((_, k) => fold[k] !== f));
    groups.forEach((g, k) => {
      if (fold[k] !== f) return;
      const pick = weightedVotePick(answerSlots(g.answers, g.labels), g.energies, maps.temperature);
      out.vote.score[k] = pick.score;
      out.vote.share[k] = pick.probability;
      out.vote.platt[k] = applyPlatt(maps.platt, pick.probability);
      const sel = selectorPick(g, maps.selector);
      out.selector.score[k] = sel.score;
      out.selector.probability[k] = sel.probability;
    });
  }
  return out;
}
