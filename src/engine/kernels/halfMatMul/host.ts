import { hostMemory } from '../hostMemory.ts';
import type { KernelFamily } from '../register.ts';
import { F16_MAX, f16Round } from '../../precision/f16.ts';
import { HALF_MAT_MUL, HALF_MAT_MUL_GRADIENT, type HalfMatMulAttrs, productDims } from './op.ts';
import { TILE, TILE_K } from './wgsl.ts';

/**
 * The WebGPU half-precision product (wgsl.ts) emulated on the host, rounding where the kernel rounds:
 * each operand to f16 as it enters a tile, each dot product of four in f16 (the products and their
 * sums, one order the GPU may take), each dot added to a float32 accumulator, k ascending; a tile with an
 * operand past f16's range all NaN. The tests bound what this costs against float32 (host.test.ts) and
 * train with it on the CPU backend (precision/halfStep.test.ts). `half` false: the same in float32.
 */
export function halfMatMulHost(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  dims: [number, number, number, number],
  t: HalfMatMulAttrs,
  bias?: ArrayLike<number>,
  half = true,
): Float32Array {
  const [batch, M, K, N] = dims;
  const round = half ? f16Round : Math.fround;
  const limit = half ? F16_MAX : 3.4028234663852886e38;
  const out = new Float32Array(batch * M * N);
  const A = (p: number, m: number, k: number) => a[p * M * K + (t.transposeA ? k * M + m : m * K + k)];
  const B = (p: number, k: number, n: number) => b[p * K * N + (t.transposeB ? n * K + k : k * N + n)];
  for (let p = 0; p < batch; p++) {
    // Which 64-row (64-column) blocks hold an operand the element type cannot take: their tiles are poisoned.
    const badRows = new Uint8Array(Math.ceil(M / TILE));
    const badCols = new Uint8Array(Math.ceil(N / TILE));
    for (let m = 0; m < M; m++) for (let k = 0; k < K; k++) if (!(Math.abs(A(p, m, k)) <= limit)) badRows[Math.floor(m / TILE)] = 1;
    for (let n = 0; n < N; n++) for (let k = 0; k < K; k++) if (!(Math.abs(B(p, k, n)) <= limit)) badCols[Math.floor(n / TILE)] = 1;
    const kPadded = Math.ceil(K / TILE_K) * TILE_K;
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) {
        let acc = 0;
        for (let k0 = 0; k0 < kPadded; k0 += 4) {
          let dot = 0;
          for (let j = 0; j < 4; j++) {
            const k = k0 + j;
            const prod = k < K ? round(round(A(p, m, k)) * round(B(p, k, n))) : 0;
            dot = j === 0 ? prod : round(dot + prod);
          }
          acc = Math.fround(acc + dot);
        }
        if (bias) acc = Math.fround(acc + bias[n]);
        out[(p * M + m) * N + n] = badRows[Math.floor(m / TILE)] || badCols[Math.floor(n / TILE)] ? NaN : acc;
      }
    }
  }
  return out;
}

/** The emulation as the product's kernel on the cpu backend: what the tests train with (never the app's: its profile turns half precision on WebGPU only). */
export const HALF_MAT_MUL_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: HALF_MAT_MUL,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const t = attrs as unknown as HalfMatMulAttrs;
        const mem = hostMemory(backend, 'cpu');
        const dims = productDims(inputs.a!.shape, inputs.b!.shape, t)!;
        const shape = inputs.a!.shape.length === 3 ? [dims[0], dims[1], dims[3]] : [dims[1], dims[3]];
        const out = mem.alloc(shape);
        mem.floats(out).set(halfMatMulHost(mem.floats(inputs.a!), mem.floats(inputs.b!), dims, t, inputs.bias ? mem.floats(inputs.bias) : undefined));
        return out;
      },
    },
  ],
  gradients: [HALF_MAT_MUL_GRADIENT],
};
