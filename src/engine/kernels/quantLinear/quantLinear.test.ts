/**
 * The 8-bit linear layer against the float32 composition it stands in for (scoring only): exact on
 * operands that are already on the 8-bit grid, and within the quantization's own bound otherwise.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { composedLinear } from '../matMul/matMul.ts';
import { quantLinear } from './quantLinear.ts';
import { quantLoops } from './wasm.ts';

beforeAll(async () => {
  await tf.setBackend('wasm');
});

/** [M, K, N]: 4-row blocks and the rows left, several 64-row blocks, one panel and many, a model's shapes. */
const SHAPES: Array<[number, number, number]> = [
  [1, 8, 8],
  [7, 16, 24],
  [203, 64, 192],
  [130, 256, 64],
  [64, 1024, 256],
];

function values(n: number, rng: ReturnType<typeof createRng>, grid: boolean): Float32Array {
  return Float32Array.from({ length: n }, () => (grid ? Math.round(rng.next() * 254 - 127) : (rng.next() * 2 - 1) * 3));
}

async function both(M: number, K: number, N: number, x: Float32Array, w: Float32Array, b: Float32Array): Promise<[Float32Array, Float32Array]> {
  const [xt, wt, bt] = [tf.tensor2d(x, [M, K]), tf.tensor2d(w, [N, K]), tf.tensor1d(b)];
  const q = quantLinear(xt, wt, bt, true);
  const f = composedLinear(xt, wt, bt, true);
  const out = [(await q.data()) as Float32Array, (await f.data()) as Float32Array] as [Float32Array, Float32Array];
  tf.dispose([xt, wt, bt, q, f]);
  return out;
}

describe('the 8-bit linear layer (scoring)', () => {
  it('runs its WebAssembly loops here', () => {
    expect(quantLoops(tf.backend())).not.toBeNull();
  });

  it('is exact where every row already lies on the 8-bit grid (largest |value| 127)', async () => {
    const rng = createRng(3);
    for (const [M, K, N] of SHAPES) {
      const x = values(M * K, rng, true);
      const w = values(N * K, rng, true);
      for (let r = 0; r < M; r++) x[r * K] = 127;
      for (let r = 0; r < N; r++) w[r * K + 1] = -127;
      const b = values(N, rng, false);
      const [q, f] = await both(M, K, N, x, w, b);
      // Integer products are exact; the float32 composition's sums of integers below 2^24 are too.
      expect(Array.from(q)).toEqual(Array.from(f));
    }
  });

  it("stays within the quantization's bound: ½·s_w·Σ|x| + ½·s_x·Σ|w| + K·s_x·s_w/4 per value", async () => {
    const rng = createRng(5);
    for (const [M, K, N] of SHAPES) {
      const [x, w, b] = [values(M * K, rng, false), values(N * K, rng, false), values(N, rng, false)];
      // A row of zeros: scale 0, values 0.
      if (M > 1) x.fill(0, 0, K);
      const [q, f] = await both(M, K, N, x, w, b);
      const rowStats = (a: Float32Array, rows: number) =>
        Array.from({ length: rows }, (_, r) => {
          let max = 0;
          let sum = 0;
          for (let k = 0; k < K; k++) {
            max = Math.max(max, Math.abs(a[r * K + k]));
            sum += Math.abs(a[r * K + k]);
          }
          return { s: max / 127, sum };
        });
      const [xs, ws] = [rowStats(x, M), rowStats(w, N)];
      let worst = 0;
      for (let i = 0; i < M; i++) {
        for (let j = 0; j < N; j++) {
          const bound = 0.5 * ws[j].s * xs[i].sum + 0.5 * xs[i].s * ws[j].sum + (K * xs[i].s * ws[j].s) / 4;
          const err = Math.abs(q[i * N + j] - f[i * N + j]);
          expect(err, `[${M}, ${K}, ${N}] (${i}, ${j})`).toBeLessThanOrEqual(bound * (1 + 1e-5) + 1e-5 * (1 + Math.abs(f[i * N + j])));
          if (bound > 0) worst = Math.max(worst, err / bound);
        }
      }
      // The bound is not loose by orders of magnitude: some value uses a good part of it.
      expect(worst).toBeGreaterThan(0.01);
    }
  });
});
