import { type WasmFunction, SIMD, backendMemory, countedLoop, i32x4Const, kernelsOn, op, v128Load, v128Store } from '../wasmModule.ts';

/**
 * hostDropout's inner loop (kernels/dropout/host.ts) in WebAssembly SIMD, four columns at a time, on
 * tfjs-wasm's heap: dst[c] = src[c] · (lowbias32(row + c·GOLDEN) >>> 8 ≥ cut ? scale : 0) for the first
 * `bytes` / 4 columns of a row (a multiple of 4; the caller does the rest). The same integers and the same
 * float32 product as the TypeScript loop, so the same bits (host.test.ts compares them).
 */
export type DropoutRow = (src: number, dst: number, bytes: number, row: number, cut: number, scale: number) => void;

const GOLDEN = 0x9e3779b9 | 0;
const splat4 = (n: number) => i32x4Const([n, n, n, n]);
const [SRC, DST, BYTES, ROW, CUT, SCALE, I, W, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/** v ^= v >>> s, with v (local V) on the stack and kept in V. */
const xorShift = (s: number) => [...op.tee(V), ...op.get(V), ...op.i32(s), ...op.simd(SIMD.i32x4ShrU), ...op.simd(SIMD.xor)];

const DROPOUT_ROW: WasmFunction = {
  name: 'dropoutRow',
  params: ['i32', 'i32', 'i32', 'i32', 'i32', 'f32'],
  locals: ['i32', 'v128', 'v128'],
  body: [
    // w = row + [0, 1, 2, 3]·GOLDEN: the four columns' hash inputs.
    ...op.get(ROW),
    ...op.simd(SIMD.i32x4Splat),
    ...i32x4Const([0, GOLDEN, Math.imul(2, GOLDEN), Math.imul(3, GOLDEN)]),
    ...op.simd(SIMD.i32x4Add),
    ...op.set(W),
    ...countedLoop(I, BYTES, 16, [
      ...op.get(DST),
      ...op.get(I),
      ...op.i32Add,
      ...op.get(SRC),
      ...op.get(I),
      ...op.i32Add,
      ...v128Load(),
      ...op.get(SCALE),
      ...op.simd(SIMD.f32x4Splat),
      ...splat4(0),
      // lowbias32(w) >>> 8 ≥ cut, lane by lane.
      ...op.get(W),
      ...xorShift(16),
      ...splat4(0x7feb352d),
      ...op.simd(SIMD.i32x4Mul),
      ...xorShift(15),
      ...splat4(0x846ca68b | 0),
      ...op.simd(SIMD.i32x4Mul),
      ...xorShift(16),
      ...op.i32(8),
      ...op.simd(SIMD.i32x4ShrU),
      ...op.get(CUT),
      ...op.simd(SIMD.i32x4Splat),
      ...op.simd(SIMD.i32x4GeU),
      // src · (keep ? scale : 0)
      ...op.simd(SIMD.bitselect),
      ...op.simd(SIMD.f32x4Mul),
      ...v128Store(),
      ...op.get(W),
      ...splat4(Math.imul(4, GOLDEN)),
      ...op.simd(SIMD.i32x4Add),
      ...op.set(W),
    ]),
  ],
};

const instances = new WeakMap<WebAssembly.Memory, { dropoutRow: DropoutRow } | null>();

/** The SIMD row kernel on this tfjs backend's heap; null off tfjs-wasm or without WebAssembly SIMD. */
export function simdDropoutRow(backend: unknown): DropoutRow | null {
  const memory = backendMemory(backend);
  return memory ? (kernelsOn([DROPOUT_ROW], memory, instances)?.dropoutRow ?? null) : null;
}
