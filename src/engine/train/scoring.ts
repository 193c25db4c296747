import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../model/config.ts';
import { energies } from '../model/transebm.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { activationBytesPerCandidate, DEFAULT_PASS_BUDGET_BYTES } from './autoMicroBatch.ts';
import { bucketLength, padBatch } from './batch.ts';

/** At most this many candidates per eval forward pass; long inputs get fewer (see below). */
export const EVAL_BATCH_MAX = 64;

/**
 * Eval-mode energies (no dropout) of any number of candidates, read back asynchronously.
 * Candidates are scored longest-first in batches so each batch pads little; a batch holds as many as
 * fit the activation budget at its longest length (64 short answers, or 1–2 at paper size and 2048
 * tokens). Results come back in input order.
 */
export async function scoreCandidates(
  cfg: ModelConfig,
  params: ParamTensors,
  candidates: ReadonlyArray<ArrayLike<number>>,
  budgetBytes = DEFAULT_PASS_BUDGET_BYTES,
  onProgress?: (done: number, total: number) => void,
): Promise<Float32Array> {
  const out = new Float32Array(candidates.length);
  const order = candidates.map((_, i) => i).sort((a, b) => candidates[b].length - candidates[a].length);
  for (let s = 0; s < order.length; ) {
    const fit = Math.floor(budgetBytes / activationBytesPerCandidate(cfg, candidates[order[s]].length));
    const idx = order.slice(s, s + Math.min(EVAL_BATCH_MAX, Math.max(1, fit)));
    s += idx.length;
    // Longest first: the batch's first candidate sets its padded length.
    const length = bucketLength(candidates[idx[0]].length, cfg.maxLen);
    const e = tf.tidy(() => energies(cfg, params, padBatch(idx.map((i) => candidates[i]), cfg.padId, length)));
    const values = await e.data();
    e.dispose();
    idx.forEach((i, k) => (out[i] = values[k]));
    onProgress?.(s, order.length);
  }
  return out;
}
