import * as tf from '@tensorflow/tfjs';

/** AdamW hyper-parameters of one update (torch 1.13, amsgrad off). */
export interface AdamWStep {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** 1-based step number, for the bias corrections. */
  t: number;
}

/**
 * One AdamW update of one parameter: g ← g·scale (the clip coefficient), m ← β1·m + (1−β1)·g,
 * v ← β2·v + (1−β2)·g², p ← p·(1 − lr·wd) − lr/(1−β1^t) · m / (√v/√(1−β2^t) + eps).
 * Where `apply` (a boolean scalar on the device) is false, p, m and v come back unchanged: a step with a
 * non-finite loss or gradient norm is skipped without reading anything back.
 * Returns new [p, m, v]. Both functions below compute it; the caller picks (the optimizer, from the
 * backend profile's `fused.adamw`).
 */
export type AdamWUpdate = (
  p: tf.Tensor,
  m: tf.Tensor,
  v: tf.Tensor,
  g: tf.Tensor,
  scale: tf.Scalar,
  apply: tf.Scalar,
  s: AdamWStep,
) => [tf.Tensor, tf.Tensor, tf.Tensor];

/**
 * The step's scalars, computed once in double for every placement (the composition's scalars, and each
 * kernel's): decay 1 − lr·wd, step size lr/(1 − β1^t), and √(1 − β2^t) with its inverse.
 */
export function adamwScalars(s: AdamWStep): { decay: number; stepSize: number; sqrtBias2: number; invSqrtBias2: number } {
  const sqrtBias2 = Math.sqrt(1 - s.beta2 ** s.t);
  return { decay: 1 - s.lr * s.weightDecay, stepSize: s.lr / (1 - s.beta1 ** s.t), sqrtBias2, invSqrtBias2: 1 / sqrtBias2 };
}

/**
 * The update as the ADAMW_KERNEL registered for the active backend. Its placements: on the CPU-memory
 * backends (cpu, wasm) host.ts, one pass over the arrays instead of ~12 kernels each reading and writing
 * the whole tensor (its loop also updates the lazy embedding's rows); on WebGPU webgpu.ts, three
 * dispatches per parameter (registered by the worker when WebGPU runs); and webgpuFlat.ts, every
 * parameter in place with the moments in one buffer, which the optimizer calls itself (model/adamw.ts).
 */
export const fusedAdamW: AdamWUpdate = (p, m, v, g, scale, apply, s) =>
  tf.engine().runKernel(ADAMW_KERNEL, { p, m, v, g, scale, apply }, { ...s }) as unknown as [tf.Tensor, tf.Tensor, tf.Tensor];

/** The plain tfjs composition: the reference the fused kernels are tested against, and the path where none is registered. */
export const composedAdamW: AdamWUpdate = (p, m, v, g0, scale, apply, s) =>
  tf.tidy(() => {
    const g = tf.mul(g0, scale);
    const mNew = tf.add(tf.mul(m, s.beta1), tf.mul(g, 1 - s.beta1));
    const vNew = tf.add(tf.mul(v, s.beta2), tf.mul(tf.square(g), 1 - s.beta2));
    const { decay, stepSize, sqrtBias2 } = adamwScalars(s);
    const denom = tf.add(tf.div(tf.sqrt(vNew), sqrtBias2), s.eps);
    const decayed = tf.mul(p, decay);
    const pNew = tf.sub(decayed, tf.mul(tf.div(mNew, denom), stepSize));
    const keep = tf.broadcastTo(apply, p.shape);
    return [tf.where(keep, pNew, p), tf.where(keep, mNew, m), tf.where(keep, vNew, v)];
  }) as [tf.Tensor, tf.Tensor, tf.Tensor];

export const ADAMW_KERNEL = 'EormAdamW';
