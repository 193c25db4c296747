import * as tf from '@tensorflow/tfjs';
import { type WasmFunction, SIMD, backendMemory, countedLoop, f32x4Const, i32x4Const, kernelsOn, op, v128Load, v128Store } from '../wasmModule.ts';

/**
 * The host GELU's loops (kernels/gelu/host.ts) in WebAssembly SIMD, four values at a time on tfjs-wasm's
 * heap, for the first `bytes` / 4 values (a multiple of 4; the caller does the rest):
 *   geluForward:  y = (x · 0.5) · (1 + erf(x/√2))
 *   geluBackward: dx = dy · (1 + erf(u)) · 0.5 + dy · (x · 0.5) · 2/√π · e^(−u²) · (1/√2), u = x/√2
 * erf is the Abramowitz-Stegun form of tfjs's Erf kernels; e^z (z ≤ 0 here) is 2^k · p(f) with a
 * degree-6 polynomial p on f ∈ [−½, ½] (relative error about 1e-7), z clamped at −87 where e^z is below
 * float32's normal range. Float32 throughout: within 1e-6 of the composition (host.test.ts).
 */
export interface GeluLoops {
  geluForward(x: number, y: number, bytes: number): void;
  geluBackward(x: number, dy: number, dx: number, bytes: number): void;
}

const { ERF_P, ERF_A1, ERF_A2, ERF_A3, ERF_A4, ERF_A5 } = tf.backend_util;
type Code = number[];
const c = (v: number): Code => f32x4Const(v);
const get = (i: number): Code => op.get(i);
const bin =
  (code: number) =>
  (a: Code, b: Code): Code => [...a, ...b, ...op.simd(code)];
const [add, sub, mul, div, max, and, or] = [SIMD.f32x4Add, SIMD.f32x4Sub, SIMD.f32x4Mul, SIMD.f32x4Div, SIMD.f32x4Max, SIMD.and, SIMD.or].map(bin);
const abs = (a: Code): Code => [...a, ...op.simd(SIMD.f32x4Abs)];
const neg = (a: Code): Code => [...a, ...op.simd(SIMD.f32x4Neg)];
const set = (i: number, v: Code): Code => [...v, ...op.set(i)];
const horner = (x: Code, coefficients: number[]): Code => coefficients.slice(1).reduce((acc, k) => add(mul(acc, x), c(k)), c(coefficients[0]));

/** 2^f = e^(f·ln 2) as a polynomial in f: (ln 2)^n / n!, highest power first. */
const LN2_POWERS = [1.5403530393381606e-4, 1.3333558146428443e-3, 9.618129107628477e-3, 5.550410866482158e-2, 0.2402265069591007, 0.6931471805599453, 1];

/** e^z for z ≤ 0, z in local `z`; uses locals w, k. */
function exp(z: number, w: number, k: number): Code {
  return [
    ...set(w, mul(max(get(z), c(-87)), c(Math.LOG2E))),
    ...set(k, [...get(w), ...op.simd(SIMD.f32x4Nearest)]),
    // p(w − k) · 2^k, 2^k built from its exponent bits: (k + 127) << 23.
    ...mul(horner(sub(get(w), get(k)), LN2_POWERS), [
      ...get(k),
      ...op.simd(SIMD.i32x4TruncSatF32x4S),
      ...i32x4Const([127, 127, 127, 127]),
      ...op.simd(SIMD.i32x4Add),
      ...op.i32(23),
      ...op.simd(SIMD.i32x4Shl),
    ]),
  ];
}

/** erf(a) for a in local `a`, the sign put back from a's sign bit; uses locals t, z, w, k. */
function erf(a: number, t: number, z: number, w: number, k: number): Code {
  return [
    ...set(t, div(c(1), add(c(1), mul(c(ERF_P), abs(get(a)))))),
    ...set(z, neg(mul(get(a), get(a)))),
    ...or(
      sub(c(1), mul(mul(horner(get(t), [ERF_A5, ERF_A4, ERF_A3, ERF_A2, ERF_A1]), get(t)), exp(z, w, k))),
      and(get(a), i32x4Const([-0x80000000, -0x80000000, -0x80000000, -0x80000000])),
    ),
  ];
}

const at = (ptr: number, i: number): Code => [...get(ptr), ...get(i), ...op.i32Add];

const FORWARD: WasmFunction = (() => {
  const [X, Y, BYTES, I, XV, A, T, Z, W, K] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  return {
    name: 'geluForward',
    params: ['i32', 'i32', 'i32'],
    locals: ['i32', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128'],
    body: countedLoop(I, BYTES, 16, [
      ...set(XV, [...at(X, I), ...v128Load()]),
      ...set(A, mul(get(XV), c(Math.SQRT1_2))),
      ...at(Y, I),
      ...mul(mul(get(XV), c(0.5)), add(c(1), erf(A, T, Z, W, K))),
      ...v128Store(),
    ]),
  };
})();

const BACKWARD: WasmFunction = (() => {
  const [X, DY, DX, BYTES, I, XV, DYV, A, T, Z, W, K, E] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  return {
    name: 'geluBackward',
    params: ['i32', 'i32', 'i32', 'i32'],
    locals: ['i32', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128'],
    body: countedLoop(I, BYTES, 16, [
      ...set(XV, [...at(X, I), ...v128Load()]),
      ...set(DYV, [...at(DY, I), ...v128Load()]),
      ...set(A, mul(get(XV), c(Math.SQRT1_2))),
      ...set(E, erf(A, T, Z, W, K)),
      ...at(DX, I),
      // z = −u² is still in its local from erf.
      ...add(
        mul(mul(get(DYV), add(c(1), get(E))), c(0.5)),
        mul(mul(mul(get(DYV), mul(get(XV), c(0.5))), mul(c(2 / Math.sqrt(Math.PI)), exp(Z, W, K))), c(Math.SQRT1_2)),
      ),
      ...v128Store(),
    ]),
  };
})();

const instances = new WeakMap<WebAssembly.Memory, GeluLoops | null>();

/** The SIMD GELU loops on this tfjs backend's heap; null off tfjs-wasm or without WebAssembly SIMD. */
export function simdGelu(backend: unknown): GeluLoops | null {
  const memory = backendMemory(backend);
  return memory ? kernelsOn([FORWARD, BACKWARD], memory, instances) : null;
}
