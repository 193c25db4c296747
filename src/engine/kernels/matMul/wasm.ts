import { type WasmFunction, SIMD, backendMemory, countedLoop, f32x4Const, kernelsOn, op, uleb, v128Load, v128Store } from '../wasmModule.ts';

/**
 * The matrix product's loops (kernels/matMul/host.ts) in WebAssembly SIMD on tfjs-wasm's heap, float32,
 * row-major. B is first packed in panels of 8 columns ([panel][k][8], packB); then each 4 × 8 block of
 * C is eight v128 accumulators over the call's values of k: per k, two loads of the panel, four
 * broadcasts of A and eight multiply-adds. Every C value is its own chain a₀b₀ + a₁b₁ + … in k order, so
 * a row's values do not depend on the block or the call that computes them (a peer's half of a step gets
 * the same numbers as the whole step). The multiply-add is relaxed SIMD's (one fused instruction where
 * the CPU has FMA) when the browser has it, else a multiply then an add (the same bits as XNNPACK's).
 * Speeds against tfjs-wasm's products: docs/performance.md.
 */
export interface GemmLoops {
  /**
   * C[rows, 8·panels] (row stride ldc bytes) = A · packed B, rows a multiple of 4. A's value (r, k) is at
   * a + r·rowStride + k·kStride bytes: [rows, k] row-major (rowStride = 4·k, kStride = 4) or transposed.
   * `accumulate` 1: C += A · B, each value's chain going on from C (the caller's blocks of k).
   * Row r of a block starting at row R is at a + R·blockStride + r·rowStride (blockStride = rowStride
   * but for packed blocks, packAT).
   */
  gemm4(
    a: number,
    bPacked: number,
    c: number,
    rows: number,
    kBytes: number,
    panels: number,
    rowStride: number,
    ldc: number,
    kStride: number,
    accumulate: number,
    blockStride: number,
  ): void;
  /** The same for any number of rows, one at a time (the rows % 4 that gemm4 leaves). */
  gemm1(
    a: number,
    bPacked: number,
    c: number,
    rows: number,
    kBytes: number,
    panels: number,
    rowStride: number,
    ldc: number,
    kStride: number,
    accumulate: number,
    blockStride: number,
  ): void;
  /**
   * Aᵀ [k, m] (row stride lda bytes) into blocks of 4 rows of A at `dst`, `blocks` of them: block b is
   * [k][4] (A's rows 4b … 4b + 3 side by side), so gemm4 reads it with rowStride 4, kStride 16 and
   * blockStride 4·k per row.
   */
  packAT(at: number, dst: number, kBytes: number, blocks: number, lda: number): void;
  /** B[k, n] (row stride ldb bytes) into packed panels at `dst`: its first 8·panels columns. */
  packB(b: number, dst: number, kBytes: number, panels: number, ldb: number): void;
  /** The same from Bᵀ [n, k] (row stride ldb bytes): its first 8·panels rows. */
  packBT(bt: number, dst: number, kBytes: number, panels: number, ldb: number): void;
  /** Whether the multiply-add is fused (relaxed SIMD's). */
  fused: boolean;
}

const RELAXED_MADD = 0x105;
const LOAD32_SPLAT = 0x09;
const F32_LOAD = 0x2a;
const F32_STORE = 0x38;

const get = op.get;
const set = op.set;
const add = (...xs: number[][]) => xs.reduce((a, b) => [...a, ...b, ...op.i32Add]);
const mul = (a: number[], b: number[]) => [...a, ...b, ...op.i32Mul];

/** C = A · packed B (or C += with `accumulate`), MR rows per block. */
function gemm(name: string, mr: number, fused: boolean): WasmFunction {
  const [A, BP, C, ROWS, KBYTES, PANELS, ROW_STRIDE, LDC, K_STRIDE, ACCUMULATE, BLOCK_STRIDE] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const [P, R, K, BB, AK] = [11, 12, 13, 14, 15];
  const rowPtr = Array.from({ length: mr }, (_, r) => 16 + r);
  const cPtr = Array.from({ length: mr }, (_, r) => 16 + mr + r);
  const acc = Array.from({ length: 2 * mr }, (_, i) => 16 + 2 * mr + i);
  const [B0, B1, AV] = [16 + 4 * mr, 17 + 4 * mr, 18 + 4 * mr];
  const madd = (accIndex: number, b: number) =>
    fused
      ? [...get(AV), ...get(b), ...get(accIndex), ...op.simd(RELAXED_MADD), ...set(accIndex)]
      : [...get(accIndex), ...get(AV), ...get(b), ...op.simd(SIMD.f32x4Mul), ...op.simd(SIMD.f32x4Add), ...set(accIndex)];
  const kStep = [
    ...get(BB),
    ...v128Load(0),
    ...set(B0),
    ...get(BB),
    ...v128Load(16),
    ...set(B1),
    ...rowPtr.flatMap((ptr, r) => [
      ...add(get(ptr), get(AK)),
      ...op.simd(LOAD32_SPLAT, 2, 0),
      ...set(AV),
      ...madd(acc[2 * r], B0),
      ...madd(acc[2 * r + 1], B1),
    ]),
    ...add(get(BB), op.i32(32)),
    ...set(BB),
    ...add(get(AK), get(K_STRIDE)),
    ...set(AK),
  ];
  const block = [
    ...rowPtr.flatMap((ptr, r) => [...add(get(A), mul(get(R), get(BLOCK_STRIDE)), mul(op.i32(r), get(ROW_STRIDE))), ...set(ptr)]),
    ...cPtr.flatMap((ptr, r) => [...add(get(C), mul(add(get(R), op.i32(r)), get(LDC)), mul(get(P), op.i32(32))), ...set(ptr)]),
    // The chains go on from C's partial sums (float32, as in the registers), or start at 0.
    ...get(ACCUMULATE),
    ...op.if,
    ...cPtr.flatMap((ptr, r) => [...get(ptr), ...v128Load(0), ...set(acc[2 * r]), ...get(ptr), ...v128Load(16), ...set(acc[2 * r + 1])]),
    ...op.else,
    ...acc.flatMap((a) => [...f32x4Const(0), ...set(a)]),
    ...op.end,
    ...add(get(BP), mul(get(P), mul(get(KBYTES), op.i32(8)))),
    ...set(BB),
    ...op.i32(0),
    ...set(AK),
    ...countedLoop(K, KBYTES, 4, kStep),
    ...cPtr.flatMap((ptr, r) => [...get(ptr), ...get(acc[2 * r]), ...v128Store(0), ...get(ptr), ...get(acc[2 * r + 1]), ...v128Store(16)]),
  ];
  return {
    name,
    params: Array<'i32'>(11).fill('i32'),
    locals: [...Array<'i32'>(5 + 2 * mr).fill('i32'), ...Array<'v128'>(2 * mr + 3).fill('v128')],
    body: countedLoop(P, PANELS, 1, countedLoop(R, ROWS, mr, block)),
  };
}

// The packing loops' parameters (source, destination, bytes of k, panels or blocks, the source's row stride) and locals.
const [SRC_, DST_, KBYTES_, COUNT_, STRIDE_, P_, K_, SRC, OUT] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const packLoop = (name: string, panelStart: number[], kStep: number[]): WasmFunction => ({
  name,
  params: ['i32', 'i32', 'i32', 'i32', 'i32'],
  locals: ['i32', 'i32', 'i32', 'i32'],
  body: countedLoop(P_, COUNT_, 1, [
    ...panelStart,
    ...set(SRC),
    ...add(get(DST_), mul(get(P_), mul(get(KBYTES_), op.i32(8)))),
    ...set(OUT),
    ...countedLoop(K_, KBYTES_, 4, [...kStep, ...add(get(OUT), op.i32(32)), ...set(OUT)]),
  ]),
});

/** Panel p starts at column 8p of B; each k copies 8 contiguous values and moves one row down. */
const PACK_B = packLoop('packB', add(get(SRC_), mul(get(P_), op.i32(32))), [
  ...get(OUT),
  ...get(SRC),
  ...v128Load(0),
  ...v128Store(0),
  ...get(OUT),
  ...get(SRC),
  ...v128Load(16),
  ...v128Store(16),
  ...add(get(SRC), get(STRIDE_)),
  ...set(SRC),
]);

/** Panel p starts at row 8p of Bᵀ; each k gathers one value from each of its 8 rows and moves one column right. */
const PACK_BT = packLoop('packBT', add(get(SRC_), mul(get(P_), mul(get(STRIDE_), op.i32(8)))), [
  ...Array.from({ length: 8 }, (_, j) => [
    ...get(OUT),
    ...(j ? add(get(SRC), mul(get(STRIDE_), op.i32(j))) : get(SRC)),
    F32_LOAD,
    2,
    0,
    F32_STORE,
    2,
    ...uleb(4 * j),
  ]).flat(),
  ...add(get(SRC), op.i32(4)),
  ...set(SRC),
]);

/** Block b's values k: 16 bytes of Aᵀ's row k, at column 4b, one after the other. */
const PACK_AT: WasmFunction = {
  name: 'packAT',
  params: ['i32', 'i32', 'i32', 'i32', 'i32'],
  locals: ['i32', 'i32', 'i32', 'i32'],
  body: countedLoop(P_, COUNT_, 1, [
    ...add(get(SRC_), mul(get(P_), op.i32(16))),
    ...set(SRC),
    ...add(get(DST_), mul(get(P_), mul(get(KBYTES_), op.i32(4)))),
    ...set(OUT),
    ...countedLoop(K_, KBYTES_, 4, [
      ...get(OUT),
      ...get(SRC),
      ...v128Load(0),
      ...v128Store(0),
      ...add(get(SRC), get(STRIDE_)),
      ...set(SRC),
      ...add(get(OUT), op.i32(16)),
      ...set(OUT),
    ]),
  ]),
};

const variants = (fused: boolean): WasmFunction[] => [gemm('gemm4', 4, fused), gemm('gemm1', 1, fused), PACK_B, PACK_BT, PACK_AT];

const fusedInstances = new WeakMap<WebAssembly.Memory, Omit<GemmLoops, 'fused'> | null>();
const plainInstances = new WeakMap<WebAssembly.Memory, Omit<GemmLoops, 'fused'> | null>();
const chosen = [new WeakMap<WebAssembly.Memory, GemmLoops | null>(), new WeakMap<WebAssembly.Memory, GemmLoops | null>()];

/**
 * The SIMD product on this tfjs backend's heap: fused where relaxed SIMD validates, else with a
 * multiply then an add; null off tfjs-wasm or without WebAssembly SIMD. `fused: false` asks for the
 * unfused loops (tests compare the two).
 */
export function simdGemm(backend: unknown, fused = true): GemmLoops | null {
  const memory = backendMemory(backend);
  if (!memory) return null;
  const cache = chosen[fused ? 1 : 0];
  if (!cache.has(memory)) {
    const withFma = fused ? kernelsOn(variants(true), memory, fusedInstances) : null;
    const loops = withFma ?? kernelsOn(variants(false), memory, plainInstances);
    cache.set(
      memory,
      loops ? { gemm4: loops.gemm4, gemm1: loops.gemm1, packB: loops.packB, packBT: loops.packBT, packAT: loops.packAT, fused: withFma !== null } : null,
    );
  }
  return cache.get(memory)!;
}
