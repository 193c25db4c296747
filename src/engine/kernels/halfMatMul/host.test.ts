import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import '../columnSum/host.ts';
import { registerKernels } from '../register.ts';
import { HALF_MAT_MUL_HOST, halfMatMulHost } from './host.ts';
import { type HalfMatMulAttrs, halfLinear, halfMatMul, productDims } from './op.ts';
import { HALF_PRODUCT_BOUND, productErrors } from './bound.ts';

const rng = createRng(46);
const values = (n: number, scale = 1) => Float32Array.from({ length: n }, () => scale * (2 * rng.next() - 1));
const TRANSPOSES: HalfMatMulAttrs[] = [false, true].flatMap((transposeA) => [false, true].map((transposeB) => ({ transposeA, transposeB })));
const stored = (t: HalfMatMulAttrs, batch: number, M: number, K: number, N: number) => ({
  a: t.transposeA ? [batch, K, M] : [batch, M, K],
  b: t.transposeB ? [batch, N, K] : [batch, K, N],
});

beforeAll(async () => {
  expect(await tf.setBackend('cpu')).toBe(true);
  registerKernels(['cpu'], HALF_MAT_MUL_HOST);
});

describe('the half-precision product emulated on the host', () => {
  it('in f32 it is the product tf.matMul computes (every transpose, batches, sizes off the tiles)', () => {
    for (const t of TRANSPOSES) {
      const [batch, M, K, N] = [2, 70, 37, 66];
      const s = stored(t, batch, M, K, N);
      const [a, b] = [values(batch * M * K), values(batch * K * N)];
      const want = tf.tidy(() =>
        tf.matMul(tf.tensor3d(a, s.a as [number, number, number]), tf.tensor3d(b, s.b as [number, number, number]), t.transposeA, t.transposeB).dataSync(),
      );
      const got = halfMatMulHost(a, b, [batch, M, K, N], t, undefined, false);
      const { worst } = productErrors(got, want, a, b, [batch, M, K, N], t);
      // Float32 both, summed in another order: float32's roundoff over K terms, a thousandth of the f16
      // bound (about 4e-6 of Σ|a||b|); a wrong index would be off by the values themselves.
      expect(worst, JSON.stringify(t)).toBeLessThan(1e-3);
    }
  });

  it(`in f16 it stays within ${HALF_PRODUCT_BOUND.toExponential(2)} of Σ|a·b| of the exact product, and does round`, () => {
    for (const t of TRANSPOSES) {
      for (const scale of [1e-3, 1, 30]) {
        const [batch, M, K, N] = [1, 65, 300, 20];
        const [a, b] = [values(M * K, scale), values(K * N)];
        const exact = halfMatMulHost(a, b, [batch, M, K, N], t, undefined, false);
        const got = halfMatMulHost(a, b, [batch, M, K, N], t);
        const { worst } = productErrors(got, exact, a, b, [batch, M, K, N], t);
        expect(worst, `${JSON.stringify(t)} × ${scale}`).toBeLessThan(1);
        // f16 keeps 11 bits: the error is far above float32's (the rounding really happens).
        expect(worst * HALF_PRODUCT_BOUND).toBeGreaterThan(1e-5);
      }
    }
  });

  it('an operand past f16 poisons its 64×64 tiles with NaN (an overflow the loss scaler sees), the others stay finite', () => {
    const [M, K, N] = [130, 8, 3];
    const a = values(M * K);
    a[100 * K + 2] = 70000; // row 100: the second block of 64 rows
    const out = halfMatMulHost(a, values(K * N), [1, M, K, N], { transposeA: false, transposeB: false });
    for (let m = 0; m < M; m++) expect(Number.isNaN(out[m * N]), `row ${m}`).toBe(m >= 64 && m < 128);
  });

  it('the op takes rank 2 and equal batches, and leaves broadcasts to tf.matMul', () => {
    expect(productDims([4, 3], [5, 3], { transposeA: false, transposeB: true })).toEqual([1, 4, 3, 5]);
    expect(productDims([2, 3, 4], [2, 4, 6], { transposeA: false, transposeB: false })).toEqual([2, 3, 4, 6]);
    expect(productDims([2, 3, 4], [1, 4, 6], { transposeA: false, transposeB: false })).toBeNull();
    expect(productDims([3, 4], [5, 6], { transposeA: false, transposeB: false })).toBeNull();
  });

  it("its gradients are tf.matMul's within the f16 bound, for every transpose; the linear's bias gradient is a column sum", () => {
    for (const t of TRANSPOSES) {
      const [M, K, N] = [9, 14, 7];
      const s = stored(t, 1, M, K, N);
      const a = tf.tensor2d(values(M * K), s.a.slice(1) as [number, number]);
      const b = tf.tensor2d(values(K * N), s.b.slice(1) as [number, number]);
      const w = tf.tensor2d(values(M * N), [M, N]);
      const grads = (f: (x: tf.Tensor, y: tf.Tensor) => tf.Tensor) =>
        tf
          .grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(f(x, y), w)))([a, b])
          .map((g) => g.dataSync());
      const half = grads((x, y) => halfMatMul(x, y, t.transposeA, t.transposeB));
      const plain = grads((x, y) => tf.matMul(x, y, t.transposeA, t.transposeB));
      for (let i = 0; i < 2; i++) {
        let worst = 0;
        for (let j = 0; j < plain[i].length; j++) worst = Math.max(worst, Math.abs(half[i][j] - plain[i][j]));
        // Each gradient entry sums at most max(M, N) products of entries below 1: the bound times that.
        expect(worst, `${JSON.stringify(t)} input ${i}`).toBeLessThan(HALF_PRODUCT_BOUND * Math.max(M, N));
        expect(worst).toBeGreaterThan(0);
      }
    }
    const [x, wt, bias] = [tf.tensor2d(values(12), [4, 3]), tf.tensor2d(values(6), [2, 3]), tf.tensor1d(values(2))];
    const dBias = tf.grad((bb: tf.Tensor) => tf.sum(tf.mul(halfLinear(x, wt, bb), tf.tensor2d([1, 2, 3, 4, 5, 6, 7, 8], [4, 2]))))(bias);
    expect(Array.from(dBias.dataSync())).toEqual([16, 20]);
    const y = halfLinear(x, wt, bias).dataSync();
    const ref = tf.add(tf.matMul(x, wt, false, true), bias).dataSync();
    for (let i = 0; i < ref.length; i++) expect(Math.abs(y[i] - ref[i])).toBeLessThan(HALF_PRODUCT_BOUND * 3 + 1e-7);
  });
});
