import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { simdGelu } from './wasm.ts';
import { GELU, GELU_GRAD, GELU_GRADIENT } from './gelu.ts';

/**
 * Exact (erf) GELU on the CPU-memory backends (cpu, wasm): one pass forward and one backward, where the
 * composition (gelu.ts's composedGelu, the reference) runs 5 kernels forward and about 8 backward, each a pass
 * over the FFN's [tokens, 4d] activations. erf is the Abramowitz-Stegun form tfjs's Erf kernels use
 * (|error| < 1.5e-7); the chain rule follows the composition's. On tfjs-wasm the loops run in
 * WebAssembly SIMD (wasm.ts; V8's Math.exp costs about 30 ns a value), here only the last length % 4
 * values and the cpu backend's, in double, rounded once.
 */
const { ERF_P, ERF_A1, ERF_A2, ERF_A3, ERF_A4, ERF_A5 } = tf.backend_util;
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

function erf(a: number): number {
  const t = 1 / (1 + ERF_P * Math.abs(a));
  const e = 1 - ((((ERF_A5 * t + ERF_A4) * t + ERF_A3) * t + ERF_A2) * t + ERF_A1) * t * Math.exp(-a * a);
  return a < 0 ? -e : e;
}

export const GELU_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: GELU,
      kernelFunc: ({ inputs, backend }) => {
        const mem = hostMemory(backend);
        const out = mem.alloc(inputs.x!.shape);
        const [x, y] = [mem.floats(inputs.x!), mem.floats(out)];
        const simd = simdGelu(backend);
        const from = simd ? x.length - (x.length % 4) : 0;
        if (simd) simd.geluForward(x.byteOffset, y.byteOffset, 4 * from);
        for (let i = from; i < x.length; i++) y[i] = x[i] * 0.5 * (1 + erf(x[i] * Math.SQRT1_2));
        return out;
      },
    },
    {
      kernelName: GELU_GRAD,
      kernelFunc: ({ inputs, backend }) => {
        const mem = hostMemory(backend);
        const out = mem.alloc(inputs.x!.shape);
        const [x, dy, dx] = [mem.floats(inputs.x!), mem.floats(inputs.dy!), mem.floats(out)];
        const simd = simdGelu(backend);
        const from = simd ? x.length - (x.length % 4) : 0;
        if (simd) simd.geluBackward(x.byteOffset, dy.byteOffset, dx.byteOffset, 4 * from);
        for (let i = from; i < x.length; i++) {
          const u = x[i] * Math.SQRT1_2;
          const du = dy[i] * (x[i] * 0.5) * (TWO_OVER_SQRT_PI * Math.exp(-(u * u)));
          dx[i] = dy[i] * (1 + erf(u)) * 0.5 + du * Math.SQRT1_2;
        }
        return out;
      },
    },
  ],
  gradients: [GELU_GRADIENT],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw/).
registerKernels(HOST_BACKENDS, GELU_HOST);
