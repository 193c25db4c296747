import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { gemm } from './host.ts';
import { simdGemm } from './wasm.ts';

/** [a shape, b shape]: 4-row blocks and the rows left, 8-column panels and the columns left, batches, k of 0 and 1. */
const SHAPES: Array<[number[], number[]]> = [
  [
    [1, 1],
    [1, 1],
  ],
  [
    [4, 3],
    [3, 8],
  ],
  [
    [5, 3],
    [3, 7],
  ],
  [
    [37, 19],
    [19, 45],
  ],
  [
    [64, 256],
    [256, 96],
  ],
  [
    [9, 600],
    [600, 13],
  ],
  [
    [70, 300],
    [300, 16],
  ],
  [
    [3, 0],
    [0, 9],
  ],
  [
    [2, 13, 17],
    [2, 17, 11],
  ],
  [
    [3, 8, 64],
    [3, 64, 24],
  ],
];

const random = (shape: number[], rng: ReturnType<typeof createRng>) =>
  tf.tensor(
    Float32Array.from({ length: shape.reduce((x, y) => x * y, 1) }, () => rng.next() * 2 - 1),
    shape,
  );

/** Each value as its chain a₀b₀ + a₁b₁ + … in k order, in float32: what the unfused loops compute. */
function chain(a: Float32Array, b: Float32Array, batch: number, M: number, K: number, N: number): Float32Array {
  const c = new Float32Array(batch * M * N);
  for (let i = 0; i < batch; i++) {
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) {
        let s = 0;
        for (let k = 0; k < K; k++) s = Math.fround(s + Math.fround(a[(i * M + m) * K + k] * b[(i * K + k) * N + n]));
        c[(i * M + m) * N + n] = s;
      }
    }
  }
  return c;
}

describe('the SIMD product (wasm)', () => {
  it('runs only on wasm', async () => {
    expect(await tf.setBackend('cpu')).toBe(true);
    expect(gemm(tf.zeros([2, 2]), tf.zeros([2, 2]))).toBeNull();
    expect(await tf.setBackend('wasm')).toBe(true);
    expect(simdGemm(tf.backend())).not.toBeNull();
  });

  it('unfused, gives each value as its float32 chain in k order, bit for bit, blocks, panels and edges', async () => {
    expect(await tf.setBackend('wasm')).toBe(true);
    const loops = simdGemm(tf.backend(), false)!;
    expect(loops.fused).toBe(false);
    const rng = createRng(11);
    for (const [sa, sb] of SHAPES.filter(([sa]) => sa.length === 2)) {
      const [a, b] = [random(sa, rng), random(sb, rng)];
      const [M, K, N] = [sa[0], sa[1], sb[1]];
      const mem = (tf.backend() as unknown as { wasm: { _malloc(n: number): number; _free(p: number): void; HEAPF32?: Float32Array } }).wasm;
      // The loops by hand, as the kernel drives them, on 8-column panels only (the kernel's tail is tested below).
      const panels = Math.floor(N / 8);
      if (panels === 0 || M % 4 !== 0) continue;
      const packed = mem._malloc(Math.max(4, panels * K * 32));
      const out = tf.zeros([M, 8 * panels]);
      const heap = (t: tf.Tensor) => (tf.backend() as unknown as { typedArrayFromHeap(t: tf.TensorInfo): Float32Array }).typedArrayFromHeap(t);
      loops.packB(heap(b).byteOffset, packed, 4 * K, panels, 4 * N);
      loops.gemm4(heap(a).byteOffset, packed, heap(out).byteOffset, M, 4 * K, panels, 4 * K, 32 * panels, 4, 0, 4 * K);
      mem._free(packed);
      const want = chain(a.dataSync() as Float32Array, tf.slice(b, [0, 0], [K, 8 * panels]).dataSync() as Float32Array, 1, M, K, 8 * panels);
      expect(Array.from(out.dataSync()), `${sa}·${sb}`).toEqual(Array.from(want));
      tf.dispose([a, b, out]);
    }
  });

  const swap = (s: number[]) => [...s.slice(0, -2), s[s.length - 1], s[s.length - 2]];
  const CASES = SHAPES.flatMap(([sa, sb]) =>
    [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ].map(([tA, tB]) => ({ sa: tA ? swap(sa) : sa, sb: tB ? swap(sb) : sb, tA, tB, plain: [sa, sb] })),
  );

  it.each(CASES)(
    'the kernel equals tf.matMul on cpu within float32 rounding, with its gradients: $sa · $sb, transposed $tA, $tB',
    async ({ sa, sb, tA, tB, plain }) => {
      const rng = createRng(12);
      {
        expect(await tf.setBackend('wasm')).toBe(true);
        const [a, b] = [random(sa, rng), random(sb, rng)];
        const [pa, pb] = plain;
        const dy = random([...pa.slice(0, -1), pb[pb.length - 1]], rng);
        const mine = gemm(a, b, tA, tB)!;
        const asPlain = (t: tf.Tensor, on: boolean) => (on ? tf.transpose(t, t.rank === 2 ? [1, 0] : [0, 2, 1]) : t).dataSync() as Float32Array;
        const exact = simdGemm(tf.backend())!.fused
          ? null
          : chain(asPlain(a, tA), asPlain(b, tB), pa.length === 3 ? pa[0] : 1, pa[pa.length - 2], pa[pa.length - 1], pb[pb.length - 1]);
        const [da, db] = tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(gemm(x, y, tA, tB)!, dy)))([a, b]);
        const got = [mine, da, db].map((t) => ({ shape: t.shape, values: t.dataSync() as Float32Array }));
        const [av, bv, dyv] = [a, b, dy].map((t) => t.dataSync());
        tf.dispose([a, b, dy, mine, da, db]);
        expect(await tf.setBackend('cpu')).toBe(true);
        const [ca, cb, cdy] = [tf.tensor(av, sa), tf.tensor(bv, sb), tf.tensor(dyv, dy.shape)];
        const want = [tf.matMul(ca, cb, tA, tB), ...tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(tf.matMul(x, y, tA, tB), cdy)))([ca, cb])];
        want.forEach((w, i) => {
          expect(got[i].shape, `${sa}·${sb} #${i}`).toEqual(w.shape);
          const wv = w.dataSync();
          // Sums of up to 256 products of values in [−1, 1]: float32 rounding stays far below 1e-4.
          for (let j = 0; j < wv.length; j++) expect(Math.abs(got[i].values[j] - wv[j]), `${sa}·${sb} #${i} at ${j}`).toBeLessThan(1e-4);
        });
        if (exact) expect(Array.from(got[0].values), `${sa}·${sb} chain`).toEqual(Array.from(exact));
        tf.dispose([ca, cb, cdy, ...want]);
      }
    },
  );
});
