import type { HalfMatMulAttrs } from './op.ts';

/**
 * How far the half-precision product may be from the exact one, relative to Σ_k |a_ik·b_kj| (not to
 * the result, which cancellation can make as small as it likes): each operand rounded to f16 (2⁻¹¹
 * relative each), its product and the three additions of a dot of four in f16 (2⁻¹¹ of the partial
 * sums each), about 6·2⁻¹¹ ≈ 2.9e-3 in all, the float32 accumulation over k negligible beside it. 2⁻⁸
 * leaves room for a GPU that fuses the dot's multiply-adds or sums it in another order.
 */
export const HALF_PRODUCT_BOUND = 2 ** -8;

/**
 * Each element's error |got − want| over HALF_PRODUCT_BOUND · Σ|a||b| (plus float32's least step, so
 * exact zeros compare): `worst` at most 1 is within the bound. Operands as stored ([batch, …]).
 */
export function productErrors(
  got: ArrayLike<number>,
  want: ArrayLike<number>,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  dims: [number, number, number, number],
  t: HalfMatMulAttrs,
): { worst: number } {
  const [batch, M, K, N] = dims;
  let worst = 0;
  for (let p = 0; p < batch; p++) {
    for (let m = 0; m < M; m++) {
      for (let n = 0; n < N; n++) {
        let mass = 0;
        for (let k = 0; k < K; k++)
          mass += Math.abs(a[p * M * K + (t.transposeA ? k * M + m : m * K + k)] * b[p * K * N + (t.transposeB ? n * K + k : k * N + n)]);
        const i = (p * M + m) * N + n;
        const err = Math.abs(got[i] - want[i]) / (HALF_PRODUCT_BOUND * mass + 1e-30);
        worst = Math.max(worst, Number.isNaN(err) ? Infinity : err);
      }
    }
  }
  return { worst };
}
