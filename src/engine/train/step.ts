import * as tf from '@tensorflow/tfjs';
import type { AdamW } from '../model/adamw.ts';
import { clipCoefficient, globalNorm } from '../model/clip.ts';
import type { ModelConfig } from '../model/config.ts';
import type { Params } from '../model/params.ts';
import { type GradientOptions, type StepBatch, lossAndGradients } from './gradients.ts';

export interface StepOptions extends GradientOptions {
  lr: number;
  maxGradNorm: number;
}

/** Scalars of one step, still on the device: read them with `await t.data()` and dispose them. */
export interface StepScalars {
  loss: tf.Scalar;
  gradNorm: tf.Scalar;
  clipCoef: tf.Scalar;
}

/** One optimizer step (loss, gradients, global-norm clipping, AdamW) inside one tidy: nothing leaks, nothing syncs. */
export function trainStep(cfg: ModelConfig, params: Params, optimizer: AdamW, batch: StepBatch, opts: StepOptions): StepScalars {
  return tf.tidy(() => {
    const { loss, grads } = lossAndGradients(cfg, params, batch, opts);
    const gradNorm = globalNorm(grads.values());
    const clipCoef = clipCoefficient(gradNorm, opts.maxGradNorm);
    optimizer.step(params, grads, opts.lr, clipCoef);
    return { loss, gradNorm, clipCoef };
  });
}
