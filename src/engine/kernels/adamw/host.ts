import type * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { ADAMW_KERNEL, type AdamWStep, adamwScalars } from './adamw.ts';

/**
 * The AdamW update (adamw.ts) on the CPU-memory backends: one pass over host arrays, for the fused kernel
 * and for the lazy embedding's rows (model/lazyEmbedding.ts).
 */

/** The same update on plain arrays, in place: the lazy embedding rows' (gradient rows from `gOffset`). */
export function adamwArrays(
  p: Float32Array,
  m: Float32Array,
  v: Float32Array,
  g: Float32Array,
  scale: number,
  s: AdamWStep,
  from = 0,
  to = p.length,
  gOffset = 0,
): void {
  adamwInto(p, m, v, g, scale, s, p, m, v, from, to, gOffset - from);
}

/** Reads p, m, v, g (entry i at i + gShift) and writes the updated values to the outputs (which may be the inputs), over [from, to). */
function adamwInto(
  p: Float32Array,
  m: Float32Array,
  v: Float32Array,
  g: Float32Array,
  scale: number,
  s: AdamWStep,
  pOut: Float32Array,
  mOut: Float32Array,
  vOut: Float32Array,
  from = 0,
  to = p.length,
  gShift = 0,
): void {
  const b1 = s.beta1;
  const b2 = s.beta2;
  const c1 = 1 - b1;
  const c2 = 1 - b2;
  const { decay, stepSize, invSqrtBias2 } = adamwScalars(s);
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

// It needs no device, so it is registered when this module loads: the backend profile (which loads this
// module) then finds it on cpu and wasm.
registerKernels(HOST_BACKENDS, ADAMW_HOST);
