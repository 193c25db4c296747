import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../../backend/profile.ts';
import type { ModelConfig } from '../../model/config.ts';
import { btLoss, btLossGradient, pairGroups } from '../../model/loss.ts';
import type { Params } from '../../model/params.ts';
import { chunkRanges } from '../../model/batch.ts';
import { type GradientOptions, accumulate, chunkPasses, gradientsByName } from './chunkPasses.ts';
import { zeroLossFree } from './lossFreeGradients.ts';

/** The candidates of one optimizer step: one group by default, several groups allowed. */
export interface StepBatch {
  /** Token ids per candidate, CLS first, at most maxLen. */
  candidates: ReadonlyArray<ArrayLike<number>>;
  /** 1 = correct, 0 = incorrect. */
  labels: ArrayLike<number>;
  /** Group index per candidate; the loss is averaged per group. */
  groupOf: ArrayLike<number>;
}

export interface LossAndGradients {
  loss: tf.Scalar;
  grads: Map<string, tf.Tensor>;
}

/**
 * Loss and gradients of the Bradley-Terry loss for one step. With a micro-batch smaller than the batch,
 * energies are first computed without gradients, dL/dE follows in closed form, and then
 * Σ stopgrad(dL/dE_i)·E_i is backpropagated chunk by chunk with gradients accumulated, so memory is
 * bounded by the micro-batch, not by the group. Chunk c uses the same dropout seed in both passes,
 * so both passes see the same masks and the result is the one-pass gradient. The entries no loss
 * depends on come back exactly 0 (lossFreeGradients.ts). With `lossScale` (half precision's loss
 * scaler) the gradients are those of loss × lossScale, the loss itself unscaled.
 */
export function lossAndGradients(
  cfg: ModelConfig,
  params: Params,
  batch: StepBatch,
  opts: GradientOptions & { profile: BackendProfile; lossScale?: tf.Scalar },
): LossAndGradients {
  const n = batch.candidates.length;
  const chunks = chunkRanges(n, opts.microBatch ?? n);
  const pairs = { ...pairGroups(batch.labels, batch.groupOf), table: opts.pairTable };
  const { profile } = opts;
  const passes = chunkPasses(cfg, params, batch.candidates, 0, chunks, opts);

  const scale = opts.lossScale;
  if (chunks.length === 1) {
    const { value, grads } = gradientsByName(
      params,
      () => (scale ? tf.mul(btLoss(passes.energies(0), pairs, profile), scale) : btLoss(passes.energies(0), pairs, profile)) as tf.Scalar,
    );
    return { loss: scale ? unscale(value, scale) : value, grads: zeroLossFree(grads, cfg.dModel) };
  }
  const e = tf.concat(chunks.map((_, c) => tf.tidy(() => passes.energies(c)))) as tf.Tensor1D;
  const loss = btLoss(e, pairs, profile);
  const dE = scale ? tf.tidy(() => tf.mul(btLossGradient(e, pairs, profile), scale) as tf.Tensor1D) : btLossGradient(e, pairs, profile);
  e.dispose();
  let acc: Map<string, tf.Tensor> | null = null;
  chunks.forEach(([s, end], c) => {
    const upstream = tf.slice(dE, [s], [end - s]) as tf.Tensor1D;
    acc = accumulate(acc, passes.gradients(c, upstream));
    upstream.dispose();
  });
  dE.dispose();
  return { loss, grads: zeroLossFree(acc!, cfg.dModel) };
}

function unscale(scaled: tf.Scalar, scale: tf.Scalar): tf.Scalar {
  const loss = tf.div(scaled, scale) as tf.Scalar;
  scaled.dispose();
  return loss;
}
