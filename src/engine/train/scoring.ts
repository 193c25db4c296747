import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../model/config.ts';
import { energies } from '../model/transebm.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { padBatch } from './batch.ts';

/** Candidates per eval forward pass; a bound on memory, not on results. */
export const EVAL_BATCH = 16;

/**
 * Eval-mode energies (no dropout) of any number of candidates, read back asynchronously.
 * Candidates are scored longest-first in batches so each batch pads little; results come back in input order.
 */
export async function scoreCandidates(
  cfg: ModelConfig,
  params: ParamTensors,
  candidates: ReadonlyArray<ArrayLike<number>>,
  batchSize = EVAL_BATCH,
): Promise<Float32Array> {
  const out = new Float32Array(candidates.length);
  const order = candidates.map((_, i) => i).sort((a, b) => candidates[b].length - candidates[a].length);
  for (let s = 0; s < order.length; s += batchSize) {
    const idx = order.slice(s, s + batchSize);
    const e = tf.tidy(() => energies(cfg, params, padBatch(idx.map((i) => candidates[i]), cfg.padId)));
    const values = await e.data();
    e.dispose();
    idx.forEach((i, k) => (out[i] = values[k]));
  }
  return out;
}
