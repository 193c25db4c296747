import * as tf from '@tensorflow/tfjs';
import { lowbias32 } from '../../shared/rng.ts';
import { type DropoutRows, GOLDEN, keepCut, keepScale, rowHash } from './keys.ts';
import { HOST_BACKENDS, hostMemory } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { simdDropoutRow } from './wasm.ts';

/**
 * Dropout on the CPU-memory backends (cpu, wasm) in one pass, with keys.ts's mask: element (r, c)
 * is kept by a keyed hash of (seed, candidate[r], position[r], c), so a row's mask is the same in whatever
 * call, chunk, worker or layout computes it. The composition (x times dropoutScales as a tensor) costs a
 * mask the size of x in JavaScript and a product. The gradient is the same kernel on dy, from the same keys: no mask is kept for the backward pass.
 */
export function hostDropout(x: tf.Tensor, seed: number, rate: number, rows: DropoutRows): tf.Tensor {
  return tf.engine().runKernel(KERNEL, { x }, { seed, rate, ...rows } as unknown as tf.NamedAttrMap) as tf.Tensor;
}

const KERNEL = 'EormHostDropout';

interface Attrs extends DropoutRows {
  seed: number;
  rate: number;
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
        // x · (kept ? scale : 0), one float32 product as the composition's: the same bits, signed zeros too,
        // and the gradient equals dy times the composition's factor.
        const cut = keepCut(rate);
        const scale = keepScale(rate);
        // On tfjs-wasm the columns go four at a time through the SIMD loop (same bits), the last cols % 4 here.
        const simd = simdDropoutRow(backend);
        const vector = simd ? cols - (cols % 4) : 0;
        for (let r = 0; r < rows; r++) {
          // One chain per row keys it by candidate then position; each column adds a Weyl step.
          const row = rowHash(seed, candidate[r], position[r]);
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

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw/).
registerKernels(HOST_BACKENDS, DROPOUT_HOST);
