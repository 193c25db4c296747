/**
 * What turns the energy-weighted vote's share of its pick into a probability that the pick is right, and
 * the scores that judge a probability. A temperature alone moves every share the same way along the
 * softmax; Platt's map q = σ(b + a · logit(share)) also corrects a share that is too sure or not sure
 * enough at every level. Its penalty pulls (a, b) towards (1, 0), the share itself, so a few questions
 * barely move it. The Python twin is python/eorm/selection.py.
 */
import { clampProbability, fitLogistic, logit, sigmoid } from '../logistic.ts';

export interface PlattMap {
  a: number;
  b: number;
}

/** Pull towards the identity map, in units of one question's log loss curvature. */
export const PLATT_PENALTY = 1;

/** Platt's map fitted on picks whose vote share is `share` and whose correctness is `correct` (0..1). */
export function fitPlatt(share: ArrayLike<number>, correct: ArrayLike<number>): PlattMap {
  const x = new Float64Array(2 * share.length);
  for (let i = 0; i < share.length; i++) {
    x[2 * i] = 1;
    x[2 * i + 1] = logit(share[i]);
  }
  const [b, a] = fitLogistic(x, correct, [PLATT_PENALTY, PLATT_PENALTY], [0, 1]);
  return { a, b };
}

export const applyPlatt = (m: PlattMap, share: number): number => sigmoid(m.b + m.a * logit(share));

/** Per question, (q − y)²: its mean is the Brier score. */
export const brierTerms = (prob: ArrayLike<number>, correct: ArrayLike<number>): Float64Array => Float64Array.from(prob, (q, i) => (q - correct[i]) ** 2);

/** Per question, −y log q − (1 − y) log(1 − q), q kept PROBABILITY_FLOOR from 0 and 1: its mean is the log loss. */
export const logLossTerms = (prob: ArrayLike<number>, correct: ArrayLike<number>): Float64Array =>
  Float64Array.from(prob, (p, i) => {
    const q = clampProbability(p);
    return -correct[i] * Math.log(q) - (1 - correct[i]) * Math.log(1 - q);
  });
