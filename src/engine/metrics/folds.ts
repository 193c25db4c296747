/**
 * The folds of every cross-fitting (crossFit.ts over held-out questions, generators.ts over training ones):
 * questions dealt by a seeded shuffle. The Python twin (python/eorm/metrics/cross_fit.py) deals the same folds.
 */
import { createRng } from '../shared/rng.ts';

export const CROSS_FIT_FOLDS = 5;
/** The fold shuffle's stream, apart from the bootstrap's (createRng(seed)) and the split's. */
const FOLD_STREAM = 0x2545f491;

/** Fold of each of n questions: a seeded Fisher–Yates deal (j = i + rng.int(n − i)), then position mod K. */
export function crossFitFolds(n: number, seed: number, folds = CROSS_FIT_FOLDS): Int32Array {
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const rng = createRng((seed ^ FOLD_STREAM) >>> 0);
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(n - i);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  const fold = new Int32Array(n);
  order.forEach((q, i) => (fold[q] = i % folds));
  return fold;
}
