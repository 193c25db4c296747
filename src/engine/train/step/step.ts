import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../../backend/profile.ts';
import { type AdamW, EMBEDDING } from '../../model/adamw.ts';
import { bothFinite, clipCoefficient, globalNorm } from '../../model/clip.ts';
import type { ModelConfig } from '../../model/config.ts';
import type { Params } from '../../model/params.ts';
import { compactBatch } from './compactBatch.ts';
import { webgpuStep } from './webgpuStep.ts';
import type { GradientOptions } from './chunkPasses.ts';
import { type StepBatch, lossAndGradients } from './gradients.ts';
import { sharedLossAndGradients } from './sharedStep.ts';
import type { StepPeer } from './stepPeer.ts';
import type { PeerModel } from '../../score/scoring.ts';

export interface StepOptions extends GradientOptions {
  lr: number;
  maxGradNorm: number;
  /** Computes the second part of the step on another core (where steps are split: the 'shared' variant). */
  peer?: StepPeer;
}

/** Scalars of one step, still on the device: read them with `await t.data()` and dispose them. */
export interface StepScalars {
  loss: tf.Scalar;
  gradNorm: tf.Scalar;
  clipCoef: tf.Scalar;
}

/** A step's options once the step has its optimizer's profile: every body below is handed it. */
type Handed = StepOptions & { profile: BackendProfile };

/**
 * The step's variants, and the one place one is chosen: from the optimizer's AdamW variant (chooseAdamW,
 * from the backend profile) and the profile's sharing and replay.
 *   'device'         every gradient and the update on the device (deviceStep; 'perTensor', or no embedding)
 *   'compactTable'   WebGPU ('flat'): a compact table of the rows the step's tokens use, everything on the
 *                    device (webgpuStep), run through tfjs every time
 *   'replayed'       the same, recorded once per shape and replayed (the profile's replaySteps)
 *   'lazyEmbedding'  the compact table's gradient handed to the lazy update on the host (lazyEmbeddingStep)
 *   'shared'         the same, every step cut in two parts, the second computed by a peer where there is one
 *                    (the profile's sharedSteps; sharedStep.ts)
 */
export type StepVariant = 'device' | 'compactTable' | 'replayed' | 'lazyEmbedding' | 'shared';

export function stepVariant(optimizer: AdamW, params: Params): StepVariant {
  const { profile } = optimizer;
  switch (optimizer.variant) {
    case 'lazyEmbedding':
      return profile.sharedSteps ? 'shared' : 'lazyEmbedding';
    case 'flat':
      if (!params.has(EMBEDDING)) return 'device';
      return profile.replaySteps ? 'replayed' : 'compactTable';
    case 'perTensor':
      return 'device';
  }
}

/**
 * One optimizer step (loss, gradients, global-norm clipping, AdamW) in the variant stepVariant picks;
 * nothing leaks, nothing syncs.
 * A step whose loss or gradient norm is not finite changes no weight and no moment: on the device the
 * update is masked (AdamW's step count still advances, as nobody waits to know), on the lazy path it is
 * not applied at all (the scalars are read back before the update anyway).
 */
export async function trainStep(cfg: ModelConfig, params: Params, optimizer: AdamW, batch: StepBatch, opts: StepOptions): Promise<StepScalars> {
  const withProfile: Handed = { ...opts, profile: optimizer.profile };
  const variant = stepVariant(optimizer, params);
  switch (variant) {
    case 'lazyEmbedding':
    case 'shared':
      return lazyEmbeddingStep(cfg, params, optimizer, batch, withProfile, variant === 'shared');
    case 'compactTable':
    case 'replayed':
      return compactTableStep(cfg, params, optimizer, batch, withProfile, variant === 'replayed');
    case 'device':
      return deviceStep(cfg, params, optimizer, batch, withProfile);
  }
}

/** Every parameter's gradient and update on the device. */
function deviceStep(cfg: ModelConfig, params: Params, optimizer: AdamW, batch: StepBatch, opts: Handed): StepScalars {
  return tf.tidy(() => {
    const { loss, grads, gradNorm, clipCoef } = clippedGradients(cfg, params, batch, opts);
    optimizer.step(params, grads, opts.lr, clipCoef, bothFinite(loss, gradNorm, optimizer.profile));
    return { loss, gradNorm, clipCoef };
  });
}

/**
 * With the optimizer's lazy embedding: the step trains a compact table of the rows its tokens use (same
 * loss, same gradients: the other rows' gradient is 0) and hands their gradient to the lazy update.
 */
async function lazyEmbeddingStep(cfg: ModelConfig, params: Params, optimizer: AdamW, batch: StepBatch, opts: Handed, shared: boolean): Promise<StepScalars> {
  const lazy = optimizer.lazy!;
  const compact = compactBatch(batch, cfg.padId, lazy.rows);
  const rows = lazy.gather(compact.rows);
  const { stepParams, table } = withCompactTable(params, () => tf.tensor2d(rows, [compact.rows.length, lazy.width]));
  try {
    const stepCfg = { ...cfg, padId: compact.padId };
    const { scalars, grads } = shared
      ? await sharedClippedGradients(stepCfg, stepParams, compact.batch, opts, rows)
      : // A plain object: tidy keeps the tensors it returns only in arrays and objects, not in a Map.
        tf.tidy(() => {
          const { loss, grads, gradNorm, clipCoef } = clippedGradients(stepCfg, stepParams, compact.batch, opts);
          return { scalars: { loss, gradNorm, clipCoef }, grads: Object.fromEntries(grads) };
        });
    try {
      const embGrad = grads[EMBEDDING];
      const [g, coef, loss, norm] = await Promise.all([embGrad.data(), scalars.clipCoef.data(), scalars.loss.data(), scalars.gradNorm.data()]);
      if (Number.isFinite(loss[0]) && Number.isFinite(norm[0])) {
        optimizer.step(params, new Map(Object.entries(grads)), opts.lr, scalars.clipCoef);
        optimizer.stepEmbedding(compact.rows, g as Float32Array, coef[0], opts.lr);
      }
    } finally {
      tf.dispose(Object.values(grads));
    }
    return scalars;
  } finally {
    table.dispose();
  }
}

/**
 * With the optimizer's in-place flat AdamW (WebGPU): the compact table of the rows the step's tokens use
 * is gathered on the device, so the embedding's gradient is [rows × d] instead of [vocabulary × d], and
 * AdamW takes it as rows and still updates every row of the embedding, in place (webgpuStep.ts, which
 * also records the step once per shape and replays it). Nothing is read back.
 */
function compactTableStep(cfg: ModelConfig, params: Params, optimizer: AdamW, batch: StepBatch, opts: Handed, replayed: boolean): StepScalars {
  if (typeof opts.dropoutSeed === 'object') throw new Error('the WebGPU step takes its dropout seed as a number');
  const [loss, gradNorm, clipCoef] = webgpuStep(cfg, params, optimizer, batch, {
    lr: opts.lr,
    maxGradNorm: opts.maxGradNorm,
    microBatch: opts.microBatch,
    dropoutSeed: opts.dropoutSeed,
    profile: optimizer.profile,
    replayed,
  });
  return { loss: loss as tf.Scalar, gradNorm: gradNorm as tf.Scalar, clipCoef: clipCoef as tf.Scalar };
}

/** Loss and gradients with their global norm and clip coefficient, all left on the device. */
function clippedGradients(cfg: ModelConfig, params: Params, batch: StepBatch, opts: Handed) {
  const { loss, grads } = lossAndGradients(cfg, params, batch, opts);
  const gradNorm = globalNorm(grads.values(), opts.profile);
  return { loss, grads, gradNorm, clipCoef: clipCoefficient(gradNorm, opts.maxGradNorm, opts.profile) };
}

/** clippedGradients of a step cut in two parts, the second computed by `opts.peer` where there is one. */
async function sharedClippedGradients(cfg: ModelConfig, params: Params, batch: StepBatch, opts: Handed, tableRows: Float32Array) {
  const profile = opts.profile;
  const helper = opts.peer ? { peer: opts.peer, model: peerModel(cfg, params, tableRows) } : undefined;
  const { loss, grads } = await sharedLossAndGradients(cfg, params, batch, { ...opts, profile }, helper);
  const { gradNorm, clipCoef } = tf.tidy(() => {
    const norm = globalNorm(grads.values(), profile);
    return { gradNorm: norm, clipCoef: clipCoefficient(norm, opts.maxGradNorm, profile) };
  });
  return { scalars: { loss, gradNorm, clipCoef }, grads: Object.fromEntries(grads) };
}

/** The step's weights for the peer: the compact table's rows as they are, every other parameter read here. */
function peerModel(cfg: ModelConfig, params: Params, tableRows: Float32Array): PeerModel {
  const weights = [...params].map(([name, v]): [string, Float32Array] => [name, name === EMBEDDING ? tableRows : (v.dataSync() as Float32Array)]);
  return { cfg: { ...cfg, vocabSize: params.get(EMBEDDING)!.shape[0]! }, weights };
}

/** The step's parameters with the embedding swapped for a trainable compact table of the rows it uses. */
function withCompactTable(params: Params, rows: () => tf.Tensor): { stepParams: Params; table: tf.Variable } {
  const table = tf.tidy(() => tf.variable(rows(), true, `${EMBEDDING}.compact#${compactCounter++}`));
  const stepParams: Params = new Map(params);
  stepParams.set(EMBEDDING, table);
  return { stepParams, table };
}

let compactCounter = 0;
