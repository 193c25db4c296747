import type * as tf from '@tensorflow/tfjs';
import { hostMemory, wasmHeap } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { quantLoops } from './wasm.ts';

/**
 * y = x Wᵀ + b with 8-bit operands on tfjs-wasm (wasm.ts's loops): W quantized per output row (its
 * largest |value| ↦ 127) and packed in panels of 8 rows, two values of k side by side, at every call (N·K
 * work against the product's M·N·K, so nothing is cached that the weights could outlive); x quantized per
 * row, 64 rows at a time, each block multiplied in int32 and scaled back with the bias added. Scoring
 * only: no gradient is registered.
 */
export const QUANT_LINEAR = 'EormQuantLinear';

/** Rows of x per block: its int16 copy and its int32 products stay in the L2 cache for every panel of W. */
const BLOCK_ROWS = 64;

/** Whether the kernel takes x [M, K] · W [N, K]ᵀ: K and N multiples of 8 (the loops' panels and lanes). */
export const takesShapes = (k: number, n: number): boolean => k > 0 && n > 0 && k % 8 === 0 && n % 8 === 0;

export const QUANT_LINEAR_WASM: KernelFamily = {
  kernels: [
    {
      kernelName: QUANT_LINEAR,
      kernelFunc: ({ inputs, backend }) => {
        const { x, w, b } = inputs as { x: tf.TensorInfo; w: tf.TensorInfo; b: tf.TensorInfo };
        const [M, K] = x.shape;
        const [N, K2] = w.shape;
        if (x.shape.length !== 2 || K2 !== K || !takesShapes(K, N) || b.shape.reduce((a, c) => a * c, 1) !== N) {
          throw new Error(`quantLinear: shapes [${x.shape}] · [${w.shape}]ᵀ + [${b.shape}] are not taken`);
        }
        const loops = quantLoops(backend)!;
        const mem = hostMemory(backend, 'wasm');
        const out = mem.alloc([M, N]);
        const heap = wasmHeap(backend);
        const rows = Math.min(BLOCK_ROWS, M);
        const bytes = { wq: N * K * 2, packed: N * K * 2, colScales: N * 4, aq: rows * K * 2, rowScales: rows * 4, c: rows * N * 4 };
        const total = Object.values(bytes).reduce((a, c) => a + c, 0);
        const scratch = heap._malloc(total + 16);
        // 16-byte aligned parts, in the order of `bytes`.
        const wq = (scratch + 15) & ~15;
        const packed = wq + bytes.wq;
        const colScales = packed + bytes.packed;
        const aq = colScales + bytes.colScales;
        const rowScales = aq + bytes.aq;
        const c = rowScales + bytes.rowScales;
        try {
          // Views after the allocations: growing the heap detaches earlier ones.
          const [X, W, B, Y] = [mem.floats(x), mem.floats(w), mem.floats(b), mem.floats(out)];
          loops.quantRows(W.byteOffset, wq, colScales, N, 4 * K, 4 * K, 2 * K);
          // Panels of 8 rows of W: per pair of k, each row's two values side by side.
          const q = new Int16Array(W.buffer);
          const [from, to] = [wq / 2, packed / 2];
          for (let p = 0; p < N / 8; p++) {
            for (let t = 0; t < K / 2; t++) {
              const dst = to + (p * (K / 2) + t) * 16;
              for (let j = 0; j < 8; j++) {
                const src = from + (8 * p + j) * K + 2 * t;
                q[dst + 2 * j] = q[src];
                q[dst + 2 * j + 1] = q[src + 1];
              }
            }
          }
          for (let m0 = 0; m0 < M; m0 += BLOCK_ROWS) {
            const m = Math.min(BLOCK_ROWS, M - m0);
            const m4 = m - (m % 4);
            loops.quantRows(X.byteOffset + 4 * m0 * K, aq, rowScales, m, 4 * K, 4 * K, 2 * K);
            if (m4 > 0) loops.qgemm4(aq, packed, c, m4, 2 * K, N / 8, 2 * K, 4 * N);
            if (m4 < m) loops.qgemm1(aq + m4 * 2 * K, packed, c + m4 * 4 * N, m - m4, 2 * K, N / 8, 2 * K, 4 * N);
            loops.dequant(c, Y.byteOffset + 4 * m0 * N, m, 4 * N, 4 * N, 4 * N, rowScales, colScales, B.byteOffset);
          }
        } finally {
          heap._free(scratch);
        }
        return out;
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel.
registerKernels(['wasm'], QUANT_LINEAR_WASM);
