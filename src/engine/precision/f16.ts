/**
 * IEEE binary16 (WGSL's f16) on the host: what a value becomes when a kernel stores or computes it in
 * half precision. The host emulations of the half-precision kernels (kernels/halfMatMul/host.ts) round
 * through here, so the tests can bound what f16 costs against the float32 path without a GPU.
 */

/** The largest finite f16. */
export const F16_MAX = 65504;
/** f16's unit roundoff: half the gap between 1 and the next f16 (10 stored mantissa bits). */
export const F16_UNIT_ROUNDOFF = 2 ** -11;
/** The smallest positive (subnormal) f16. */
export const F16_MIN_SUBNORMAL = 2 ** -24;

/** x rounded to the nearest f16, ties to even (IEEE's default, and WGSL's f32 → f16 conversion); ±Infinity past F16_MAX. */
export function f16Round(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  // log2 may land one off at exact powers of two: put e right.
  if (2 ** e > a) e -= 1;
  else if (2 ** (e + 1) <= a) e += 1;
  // Normal numbers keep 10 bits after the leading one; below 2^-14 the spacing stays 2^-24 (subnormals).
  const quantum = 2 ** (Math.max(e, -14) - 10);
  const v = a / quantum; // exact: a division by a power of two
  const floor = Math.floor(v);
  const diff = v - floor;
  const n = diff > 0.5 || (diff === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  const r = n * quantum;
  if (r > F16_MAX) return x > 0 ? Infinity : -Infinity;
  return x < 0 ? -r : r;
}

/** Every element rounded to f16 (a new array). */
export function f16RoundArray(xs: ArrayLike<number>): Float32Array {
  const out = new Float32Array(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = f16Round(xs[i]);
  return out;
}
