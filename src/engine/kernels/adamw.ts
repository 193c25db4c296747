import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from './hostMemory.ts';
import { type KernelFamily, registerKernels } from './register.ts';

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
export type AdamWUpdate = (p: tf.Tensor, m: tf.Tensor, v: tf.Tensor, g: tf.Tensor, scale: tf.Scalar, apply: tf.Scalar, s: AdamWStep) => [tf.Tensor, tf.Tensor, tf.Tensor];

/**
 * The update as the ADAMW_KERNEL registered for the active backend: on the CPU-memory backends (cpu,
 * wasm) the kernel below, one pass over the arrays instead of ~12 kernels each reading and writing the
 * whole tensor; on WebGPU three dispatches (webgpu/adamw.ts, registered by the worker when WebGPU runs).
 */
export const fusedAdamW: AdamWUpdate = (p, m, v, g, scale, apply, s) =>
  tf.engine().runKernel(ADAMW_KERNEL, { p, m, v, g, scale, apply }, { ...s }) as unknown as [tf.Tensor, tf.Tensor, tf.Tensor];

/** The plain tfjs composition: the reference the fused kernels are tested against, and the path where none is registered. */
export const composedAdamW: AdamWUpdate = (p, m, v, g0, scale, apply, s) =>
  tf.tidy(() => {
    const g = tf.mul(g0, scale);
    const mNew = tf.add(tf.mul(m, s.beta1), tf.mul(g, 1 - s.beta1));
    const vNew = tf.add(tf.mul(v, s.beta2), tf.mul(tf.square(g), 1 - s.beta2));
    const denom = tf.add(tf.div(tf.sqrt(vNew), Math.sqrt(1 - s.beta2 ** s.t)), s.eps);
    const decayed = tf.mul(p, 1 - s.lr * s.weightDecay);
    const pNew = tf.sub(decayed, tf.mul(tf.div(mNew, denom), s.lr / (1 - s.beta1 ** s.t)));
    const keep = tf.broadcastTo(apply, p.shape);
    return [tf.where(keep, pNew, p), tf.where(keep, mNew, m), tf.where(keep, vNew, v)];
  }) as [tf.Tensor, tf.Tensor, tf.Tensor];

/** The same update on plain arrays, in place: the lazy embedding rows' (gradient rows from `gOffset`). */
export function adamwArrays(p: Float32Array, m: Float32Array, v: Float32Array, g: Float32Array, scale: number, s: AdamWStep, from = 0, to = p.length, gOffset = 0): void {
  adamwInto(p, m, v, g, scale, s, p, m, v, from, to, gOffset - from);
}

/** Reads p, m, v, g (entry i at i + gShift) and writes the updated values to the outputs (which may be the inputs), over [from, to). */
function adamwInto(p: Float32Array, m: Float32Array, v: Float32Array, g: Float32Array, scale: number, s: AdamWStep, pOut: Float32Array, mOut: Float32Array, vOut: Float32Array, from = 0, to = p.length, gShift = 0): void {
  const b1 = s.beta1;
  const b2 = s.beta2;
  const c1 = 1 - b1;
  const c2 = 1 - b2;
  const decay = 1 - s.lr * s.weightDecay;
  const stepSize = s.lr / (1 - b1 ** s.t);
  const invSqrtBias2 = 1 / Math.sqrt(1 - b2 ** s.t);
  const eps = s.eps;
  for (let i = from; i < to; i++) {
    const gi = g[i + gShift] * scale;
    const mi = b1 * m[i] + c1 * gi;
    const vi = b2 * v[i] + c2 * gi * gi;
    mOut[i] = mi;
    vOut[i] = vi;
    pOut[i] = p[i] * decay - stepSize * (mi / (Math.sqrt(vi) * invSqrtBias2 + eps));
  }
}

export const ADAMW_KERNEL = 'EormAdamW';

/** The kernel on the CPU-memory backends: one pass over the arrays. */
export const ADAMW_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: ADAMW_KERNEL,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const mem = hostMemory(backend);
        const { p, m, v, g, scale, apply } = inputs as Record<string, tf.TensorInfo>;
        const outs = [mem.alloc(p.shape), mem.alloc(p.shape), mem.alloc(p.shape)];
        const [P, M, V] = outs.map((o) => mem.floats(o));
        // A bool tensor is one byte per entry on both backends; `ints` reads its first entry all the same.
        if (mem.ints(apply)[0] !== 0) {
          adamwInto(mem.floats(p), mem.floats(m), mem.floats(v), mem.floats(g), mem.floats(scale)[0], attrs as unknown as AdamWStep, P, M, V);
        } else {
          P.set(mem.floats(p));
          M.set(mem.floats(m));
          V.set(mem.floats(v));
        }
        return outs;
      },
    },
  ],
};

// It needs no device, so it is registered when this module loads: the backend profile (which imports
// ADAMW_KERNEL from here) then finds it on cpu and wasm.
registerKernels(HOST_BACKENDS, ADAMW_HOST);
