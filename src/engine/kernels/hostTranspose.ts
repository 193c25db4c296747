import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from './hostMemory.ts';
import { type KernelFamily, registerKernels } from './register.ts';
import { simdTranspose } from './wasm/transpose.ts';

/**
 * The last two axes of a rank-2 or rank-3 tensor swapped ([.., rows, cols] → [.., cols, rows]): the
 * explicit transposes in front of the plain products (kernels/matmul.ts). tfjs-wasm's Transpose moves one
 * value at a time (about 7.5 ns a value on [4096, 1024]); on tfjs-wasm this kernel moves 4×4 blocks in
 * WebAssembly SIMD (wasm/transpose.ts) and copies the edges here. Its gradient is itself.
 */
export function swapLast(x: tf.Tensor): tf.Tensor {
  return tf.engine().runKernel(SWAP_LAST, { x }) as tf.Tensor;
}

const SWAP_LAST = 'EormSwapLast';

export const SWAP_LAST_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: SWAP_LAST,
      kernelFunc: ({ inputs, backend }) => {
        const x = inputs.x!;
        const r = x.shape.length;
        if (r !== 2 && r !== 3) throw new Error(`swapLast: rank ${r}, not 2 or 3`);
        const [rows, cols] = x.shape.slice(-2);
        const mem = hostMemory(backend);
        const out = mem.alloc([...x.shape.slice(0, -2), cols, rows]);
        const [src, dst] = [mem.floats(x), mem.floats(out)];
        const simd = simdTranspose(backend);
        const [rows4, cols4] = simd ? [rows - (rows % 4), cols - (cols % 4)] : [0, 0];
        for (let o = 0; o < src.length; o += rows * cols) {
          if (simd) simd(src.byteOffset + 4 * o, dst.byteOffset + 4 * o, rows, cols, rows4, cols4);
          // What the blocks leave: the last rows % 4 rows, and the last cols % 4 columns of the others.
          for (let i = 0; i < rows; i++) {
            for (let j = i < rows4 ? cols4 : 0; j < cols; j++) dst[o + j * rows + i] = src[o + i * cols + j];
          }
        }
        return out;
      },
    },
  ],
  gradients: [{ kernelName: SWAP_LAST, gradFunc: (dy) => ({ x: () => swapLast(dy as tf.Tensor) }) }],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw.ts).
registerKernels(HOST_BACKENDS, SWAP_LAST_HOST);
