/**
 * Train/validation split by group, seeded: only groups with both a correct and an incorrect
 * candidate carry a ranking loss, so only those are split. A separate test file is not split at all.
 */
import { createRng, shuffleInPlace } from './rng.ts';
import type { TrainingView } from './types.ts';

export const DEFAULT_SPLIT_SEED = 42;
export const DEFAULT_TRAIN_FRACTION = 0.8;

export interface SplitOptions {
  seed?: number;
  /** In (0, 1]; default 0.8. */
  trainFraction?: number;
}

/** Group indices (into the dataset's group order). */
export interface GroupSplit {
  train: Uint32Array;
  val: Uint32Array;
}

type Labels = Pick<TrainingView, 'labels' | 'groupStart'>;

/** Indices of the groups with at least one correct and one incorrect candidate, ascending. */
export function trainableGroups({ labels, groupStart }: Labels): Uint32Array {
  const out: number[] = [];
  for (let g = 0; g + 1 < groupStart.length; g++) {
    let pos = 0;
    for (let i = groupStart[g]; i < groupStart[g + 1]; i++) pos += labels[i];
    if (pos > 0 && pos < groupStart[g + 1] - groupStart[g]) out.push(g);
  }
  return Uint32Array.from(out);
}

/**
 * Shuffles the trainable groups with the seeded PRNG and cuts at round(fraction · n); with a
 * fraction below 1 and n ≥ 2 both parts keep at least one group.
 */
export function splitGroups(labels: Labels, options: SplitOptions = {}): GroupSplit {
  const fraction = options.trainFraction ?? DEFAULT_TRAIN_FRACTION;
  if (!(fraction > 0 && fraction <= 1)) throw new Error(`trainFraction must be in (0, 1] (got ${fraction})`);
  const groups = trainableGroups(labels);
  shuffleInPlace(groups, createRng(options.seed ?? DEFAULT_SPLIT_SEED));
  const n = groups.length;
  let nTrain = Math.round(n * fraction);
  if (fraction < 1 && n >= 2) nTrain = Math.min(n - 1, Math.max(1, nTrain));
  return { train: groups.slice(0, nTrain), val: groups.slice(nTrain) };
}
