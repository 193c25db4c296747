import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from './hostMemory.ts';
import { type KernelFamily, registerKernels } from './register.ts';
import { simdDropoutRow } from './wasm/dropoutRow.ts';

/**
 * What keys the mask of each row of a [rows, cols] tensor: the candidate's index in the step, and a
 * position inside that candidate (a token, or a (head, query) pair of an attention block).
 */
export interface DropoutRows {
  candidate: Int32Array;
  position: Int32Array;
}

/**
 * Dropout on the CPU-memory backends (cpu, wasm) in one pass. Element (r, c) is kept when a keyed hash of
 * (seed, candidate[r], position[r], c) is at least `rate`, so a row's mask is the same in whatever call,
 * chunk or worker computes it: splitting a step's candidates differently draws the same masks. tf.dropout
 * draws its mask over the whole tensor with a sequential generator in JavaScript and costs ~6 kernels.
 * The gradient is the same kernel on dy, from the same keys: no mask is kept for the backward pass.
 */
export function hostDropout(x: tf.Tensor, seed: number, rate: number, rows: DropoutRows): tf.Tensor {
  return tf.engine().runKernel(KERNEL, { x }, { seed, rate, ...rows } as unknown as tf.NamedAttrMap) as tf.Tensor;
}

const KERNEL = 'EormHostDropout';
const GOLDEN = 0x9e3779b9;

interface Attrs extends DropoutRows {
  seed: number;
  rate: number;
}

// lowbias32 (C. Wellons), a bijection of u32 with good avalanche, as in the WebGPU kernel (webgpu/dropout.ts).
function lowbias32(v: number): number {
  v ^= v >>> 16;
  v = Math.imul(v, 0x7feb352d);
  v ^= v >>> 15;
  v = Math.imul(v, 0x846ca68b);
  v ^= v >>> 16;
  return v >>> 0;
}

export const DROPOUT_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: KERNEL,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { x } = inputs as { x: tf.TensorInfo };
        const { seed, rate, candidate, position } = attrs as unknown as Attrs;
        const [rows, cols] = x.shape;
        if (x.shape.length !== 2 || candidate.length !== rows || position.length !== rows) {
          throw new Error(`hostDropout: x [${x.shape}] needs [rows, cols] with one candidate and position per row (${candidate.length}, ${position.length})`);
        }
        const mem = hostMemory(backend);
        const out = mem.alloc([rows, cols]);
        const src = mem.floats(x);
        const dst = mem.floats(out);
        // u = (h >>> 8) / 2^24 ≥ rate, in integers. x · (mask / keep) as tf.dropout computes it, its scale
        // rounded to float32: the gradient equals dy · (mask / keep) computed with tensors, signed zeros too.
        const cut = Math.ceil(rate * 16777216);
        const scale = Math.fround(1 / (1 - rate));
        const s = lowbias32(seed ^ GOLDEN);
        // On tfjs-wasm the columns go four at a time through the SIMD loop (same bits), the last cols % 4 here.
        const simd = simdDropoutRow(backend);
        const vector = simd ? cols - (cols % 4) : 0;
        for (let r = 0; r < rows; r++) {
          // One chain per row keys it by candidate then position; each column adds a Weyl step.
          const row = lowbias32(lowbias32(s ^ candidate[r]) ^ position[r]);
          const o = r * cols;
          if (vector > 0) simd!(src.byteOffset + 4 * o, dst.byteOffset + 4 * o, 4 * vector, row | 0, cut, scale);
          for (let c = vector; c < cols; c++) {
            const h = lowbias32((row + Math.imul(c, GOLDEN)) | 0);
            dst[o + c] = src[o + c] * (h >>> 8 >= cut ? scale : 0);
          }
        }
        return out;
      },
    },
  ],
  gradients: [
    {
      kernelName: KERNEL,
      gradFunc: (dy, _saved, attrs) => {
        const { seed, rate, candidate, position } = attrs as unknown as Attrs;
        return { x: () => hostDropout(dy as tf.Tensor, seed, rate, { candidate, position }) };
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw.ts).
registerKernels(HOST_BACKENDS, DROPOUT_HOST);
