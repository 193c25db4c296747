import * as tf from '@tensorflow/tfjs';
import { hostMemory, wasmHeap } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { simdGemm } from './wasm.ts';

/**
 * op(a)·op(b) for rank-2, or rank-3 with the same batch, op = transpose of the last two axes when
 * asked: tf.matMul's maths on tfjs-wasm in this project's WebAssembly SIMD loops (wasm.ts). No
 * transpose is made: B's packing reads Bᵀ, and Aᵀ is read through its strides or packed by blocks of
 * rows. tfjs-wasm runs a product in XNNPACK only without batch or transpose, else in a scalar loop; these
 * loops beat both in Chromium (docs/performance.md). Null where they cannot run (off tfjs-wasm, or
 * without WebAssembly SIMD).
 */
export function gemm(a: tf.Tensor, b: tf.Tensor, transposeA = false, transposeB = false): tf.Tensor | null {
  if (tf.getBackend() !== 'wasm' || !simdGemm(tf.backend())) return null;
  return tf.engine().runKernel(GEMM, { a, b }, { transposeA, transposeB }) as tf.Tensor;
}

/** op(a)·op(b) by the SIMD loops where they run, else by tf.matMul (the reference). */
export function simdMatMul(a: tf.Tensor, b: tf.Tensor, transposeA = false, transposeB = false): tf.Tensor {
  return gemm(a, b, transposeA, transposeB) ?? tf.matMul(a, b, transposeA, transposeB);
}

const GEMM = 'EormGemm';

/** Values of k and rows of A per block: a panel of B is then 8 KiB, A's block 64 KiB. */
const BLOCKS = { k: 256, m: 64 };

interface GemmAttrs {
  transposeA: boolean;
  transposeB: boolean;
}

export const GEMM_WASM: KernelFamily = {
  kernels: [
    {
      kernelName: GEMM,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { a, b } = inputs as { a: tf.TensorInfo; b: tf.TensorInfo };
        const { transposeA, transposeB } = attrs as unknown as GemmAttrs;
        const r = a.shape.length;
        const [a1, a2] = a.shape.slice(-2);
        const [b1, b2] = b.shape.slice(-2);
        const [M, K] = transposeA ? [a2, a1] : [a1, a2];
        const N = transposeB ? b1 : b2;
        const batch = r === 3 ? a.shape[0] : 1;
        if ((r !== 2 && r !== 3) || b.shape.length !== r || (transposeB ? b2 : b1) !== K || (r === 3 && b.shape[0] !== batch)) {
          throw new Error(`gemm: shapes [${a.shape}]${transposeA ? 'ᵀ' : ''} · [${b.shape}]${transposeB ? 'ᵀ' : ''} do not make a product`);
        }
        const loops = simdGemm(backend)!;
        const mem = hostMemory(backend, 'wasm');
        const out = mem.alloc([...a.shape.slice(0, -2), M, N]);
        const panels = Math.floor(N / 8);
        const tail = N % 8;
        const kc = Math.min(K, BLOCKS.k);
        const panelBytes = kc * 32;
        const packedBytes = (panels + (tail ? 1 : 0)) * panelBytes;
        const heap = wasmHeap(backend);
        const asideBytes = tail ? M * 32 : 0;
        // Transposed A: each block of rows across a block of k packed (loops.packAT), read in order.
        const packedA = transposeA ? BLOCKS.m * kc * 4 : 0;
        const scratch = heap._malloc(packedBytes + asideBytes + packedA);
        const aside = scratch + packedBytes;
        const aPacked = aside + asideBytes;
        // A's value (m, k) at m·rowStride + k·kStride bytes.
        const [rowStride, kStride] = transposeA ? [4, 4 * M] : [4 * K, 4];
        // B's value (k, n) at index k·kStep + n·nStep.
        const [kStep, nStep] = transposeB ? [1, K] : [N, 1];
        try {
          // Views after the allocations: growing the heap detaches earlier ones.
          const [A, B, C] = [mem.floats(a), mem.floats(b), mem.floats(out)];
          if (K === 0) C.fill(0);
          const floats = new Float32Array(C.buffer);
          for (let i = 0; i < batch; i++) {
            const [a0, b0, c0] = [i * M * K, i * K * N, i * M * N];
            const cPtr = C.byteOffset + 4 * c0;
            // Blocks of k: a block's panel of B and A's rows across it stay in the L1 cache.
            for (let k0 = 0; k0 < K; k0 += kc) {
              const kBytes = 4 * (Math.min(K, k0 + kc) - k0);
              const accumulate = k0 > 0 ? 1 : 0;
              const aPtr = A.byteOffset + 4 * a0 + k0 * kStride;
              (transposeB ? loops.packBT : loops.packB)(B.byteOffset + 4 * (b0 + k0 * kStep), scratch, kBytes, panels, 4 * (transposeB ? K : N));
              // The last columns: a panel padded with zeros, its block of C kept aside (copied at the end).
              const last = (scratch + panels * 8 * kBytes) / 4;
              for (let k = 0; tail > 0 && k < kBytes / 4; k++) {
                for (let j = 0; j < 8; j++) floats[last + 8 * k + j] = j < tail ? B[b0 + (k0 + k) * kStep + (8 * panels + j) * nStep] : 0;
              }
              // Rows in blocks of BLOCKS.m: a block's rows across a block of k stay in the L2 cache for every panel.
              for (let m0 = 0; m0 < M; m0 += BLOCKS.m) {
                const m = Math.min(BLOCKS.m, M - m0);
                const m4 = m - (m % 4);
                let [blockA, blockRow, blockK, blockStride] = [aPtr + m0 * rowStride, rowStride, kStride, rowStride];
                if (transposeA && m4 > 0) {
                  loops.packAT(blockA, aPacked, kBytes, m4 / 4, kStride);
                  [blockA, blockRow, blockK, blockStride] = [aPacked, 4, 16, kBytes];
                }
                const gemms = (c: number, bPacked: number, n: number, ldc: number) => {
                  if (n === 0) return;
                  if (m4 > 0) loops.gemm4(blockA, bPacked, c, m4, kBytes, n, blockRow, ldc, blockK, accumulate, blockStride);
                  const rest = aPtr + (m0 + m4) * rowStride;
                  if (m4 < m) loops.gemm1(rest, bPacked, c + m4 * ldc, m - m4, kBytes, n, rowStride, ldc, kStride, accumulate, rowStride);
                };
                gemms(cPtr + m0 * 4 * N, scratch, panels, 4 * N);
                if (tail > 0) gemms(aside + m0 * 32, 4 * last, 1, 32);
              }
            }
            for (let m = 0; tail > 0 && K > 0 && m < M; m++) {
              for (let j = 0; j < tail; j++) C[c0 + m * N + 8 * panels + j] = floats[aside / 4 + 8 * m + j];
            }
          }
        } finally {
          heap._free(scratch);
        }
        return out;
      },
    },
  ],
  gradients: [
    {
      kernelName: GEMM,
      inputsToSave: ['a', 'b'],
      // As tfjs's BatchMatMul gradient, each part a product of this kernel.
      gradFunc: (dyT, [a, b], attrs) => {
        const dy = dyT as tf.Tensor;
        const { transposeA: tA, transposeB: tB } = attrs as unknown as GemmAttrs;
        const g = (x: tf.Tensor, y: tf.Tensor, tx: boolean, ty: boolean) => () => gemm(x, y, tx, ty)!;
        if (!tA && !tB) return { a: g(dy, b, false, true), b: g(a, dy, true, false) };
        if (!tA && tB) return { a: g(dy, b, false, false), b: g(dy, a, true, false) };
        if (tA && !tB) return { a: g(b, dy, false, true), b: g(a, dy, false, false) };
        return { a: g(b, dy, true, true), b: g(dy, a, true, true) };
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw/).
registerKernels(['wasm'], GEMM_WASM);
