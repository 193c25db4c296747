import { type WasmFunction, SIMD, backendMemory, countedLoop, kernelsOn, op, v128Load, v128Store } from '../wasmModule.ts';

/**
 * The 8-bit linear layer's loops (quantLinear/host.ts) in WebAssembly SIMD on tfjs-wasm's heap. Values are
 * quantized to integers in [−127, 127] held as int16, so that one `i32x4.dot_i16x8_s` does eight
 * multiply-adds exactly (a float32 multiply-add does four): A per row, B per output column. The product
 * B is packed in panels of 8 columns, two values of k side by side ([panel][k / 2][8][2]); each 4 × 8 block
 * of C is eight int32 accumulators over every k pair: per pair, two loads of the panel, four broadcasts of
 * A's pair and eight dot products. Integer sums are exact, so the order of k does not matter here.
 */
export interface QuantLoops {
  /**
   * A's rows (float32, row stride `lda` bytes, `kBytes` = 4·K, K a multiple of 8) as int16 at `dst` (row
   * stride `ldq` bytes), each scaled by 127 / its largest |value| and rounded to nearest; that largest
   * |value| / 127 goes to `scales` (float32 per row; 0 for a row of zeros).
   */
  quantRows(src: number, dst: number, scales: number, rows: number, kBytes: number, lda: number, ldq: number): void;
  /** C[rows, 8·panels] int32 (row stride ldc bytes) = Aq · packed Bq, rows a multiple of 4; `pairBytes` = 4 · (K / 2). */
  qgemm4(a: number, bPacked: number, c: number, rows: number, pairBytes: number, panels: number, ldq: number, ldc: number): void;
  /** The same for any number of rows, one at a time (the rows % 4 that qgemm4 leaves). */
  qgemm1(a: number, bPacked: number, c: number, rows: number, pairBytes: number, panels: number, ldq: number, ldc: number): void;
  /**
   * out[rows, N] (row stride ldo bytes, `nBytes` = 4·N, N a multiple of 4) = C · rowScale · colScale + bias,
   * C int32 (row stride ldc bytes), rowScales one float32 per row, colScales and bias one per column.
   */
  dequant(c: number, out: number, rows: number, nBytes: number, ldc: number, ldo: number, rowScales: number, colScales: number, bias: number): void;
}

const DOT_I16 = 0xba;
const LOAD32_SPLAT = 0x09;
const F32X4_EXTRACT_LANE = 0x1f;
const I16X8_NARROW_I32X4_S = 0x85;
const F32X4_CONVERT_I32X4_S = 0xfa;
const F32_STORE = [0x38, 2];
const F32_GT = 0x5e;
const F32_DIV = 0x95;
const F32_MAX = 0x97;
const I32_SHR_U = 0x76;
const f32Const = (v: number) => [0x43, ...new Uint8Array(new Float32Array([v]).buffer)];

const get = op.get;
const set = op.set;
const add = (...xs: number[][]) => xs.reduce((a, b) => [...a, ...b, ...op.i32Add]);
const mul = (a: number[], b: number[]) => [...a, ...b, ...op.i32Mul];
const zero = op.simd(SIMD.const, ...new Array<number>(16).fill(0));

/** The int32 product of `mr` rows at a time. */
function qgemm(name: string, mr: number): WasmFunction {
  const [A, BP, C, ROWS, PAIR_BYTES, PANELS, LDQ, LDC] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [P, R, K, BB] = [8, 9, 10, 11];
  const rowPtr = Array.from({ length: mr }, (_, r) => 12 + r);
  const cPtr = Array.from({ length: mr }, (_, r) => 12 + mr + r);
  const acc = Array.from({ length: 2 * mr }, (_, i) => 12 + 2 * mr + i);
  const [B0, B1, AV] = [12 + 4 * mr, 13 + 4 * mr, 14 + 4 * mr];
  const dot = (a: number, b: number) => [...get(a), ...get(AV), ...get(b), ...op.simd(DOT_I16), ...op.simd(SIMD.i32x4Add), ...set(a)];
  const pairStep = [
    ...get(BB),
    ...v128Load(0),
    ...set(B0),
    ...get(BB),
    ...v128Load(16),
    ...set(B1),
    ...rowPtr.flatMap((ptr, r) => [...add(get(ptr), get(K)), ...op.simd(LOAD32_SPLAT, 2, 0), ...set(AV), ...dot(acc[2 * r], B0), ...dot(acc[2 * r + 1], B1)]),
    ...add(get(BB), op.i32(32)),
    ...set(BB),
  ];
  const block = [
    ...rowPtr.flatMap((ptr, r) => [...add(get(A), mul(add(get(R), op.i32(r)), get(LDQ))), ...set(ptr)]),
    ...cPtr.flatMap((ptr, r) => [...add(get(C), mul(add(get(R), op.i32(r)), get(LDC)), mul(get(P), op.i32(32))), ...set(ptr)]),
    ...acc.flatMap((a) => [...zero, ...set(a)]),
    ...add(get(BP), mul(get(P), mul(get(PAIR_BYTES), op.i32(8)))),
    ...set(BB),
    ...countedLoop(K, PAIR_BYTES, 4, pairStep),
    ...cPtr.flatMap((ptr, r) => [...get(ptr), ...get(acc[2 * r]), ...v128Store(0), ...get(ptr), ...get(acc[2 * r + 1]), ...v128Store(16)]),
  ];
  return {
    name,
    params: Array<'i32'>(8).fill('i32'),
    locals: [...Array<'i32'>(4 + 2 * mr).fill('i32'), ...Array<'v128'>(2 * mr + 3).fill('v128')],
    body: countedLoop(P, PANELS, 1, countedLoop(R, ROWS, mr, block)),
  };
}

/** Per row: the largest |value| (SIMD max, then across lanes), its scale, then 8 values at a time rounded and narrowed to int16. */
const QUANT_ROWS: WasmFunction = (() => {
  const [SRC, DST, SCALES, ROWS, KBYTES, LDA, LDQ] = [0, 1, 2, 3, 4, 5, 6];
  const [R, K, S, D] = [7, 8, 9, 10];
  const [MAX, INV] = [11, 12];
  const [VMAX, VINV] = [13, 14];
  const lane = (i: number) => [...get(VMAX), ...op.simd(F32X4_EXTRACT_LANE, i)];
  const scaled = (offset: number) => [
    ...add(get(S), get(K)),
    ...v128Load(offset),
    ...get(VINV),
    ...op.simd(SIMD.f32x4Mul),
    ...op.simd(SIMD.f32x4Nearest),
    ...op.simd(SIMD.i32x4TruncSatF32x4S),
  ];
  const row = [
    ...add(get(SRC), mul(get(R), get(LDA))),
    ...set(S),
    ...add(get(DST), mul(get(R), get(LDQ))),
    ...set(D),
    ...zero,
    ...set(VMAX),
    ...countedLoop(K, KBYTES, 16, [...get(VMAX), ...add(get(S), get(K)), ...v128Load(0), ...op.simd(SIMD.f32x4Abs), ...op.simd(SIMD.f32x4Max), ...set(VMAX)]),
    ...lane(0),
    ...lane(1),
    F32_MAX,
    ...lane(2),
    ...lane(3),
    F32_MAX,
    F32_MAX,
    ...set(MAX),
    // A row of zeros keeps scale 0 and quantizes to zeros.
    ...get(MAX),
    ...f32Const(0),
    F32_GT,
    ...op.if,
    ...f32Const(127),
    ...get(MAX),
    F32_DIV,
    ...set(INV),
    ...op.else,
    ...f32Const(0),
    ...set(INV),
    ...op.end,
    ...add(get(SCALES), mul(get(R), op.i32(4))),
    ...get(MAX),
    ...f32Const(127),
    F32_DIV,
    ...F32_STORE,
    0,
    ...get(INV),
    ...op.simd(SIMD.f32x4Splat),
    ...set(VINV),
    ...countedLoop(K, KBYTES, 32, [
      // 8 floats (32 bytes) become 8 int16 (16 bytes).
      ...get(D),
      ...get(K),
      ...op.i32(1),
      I32_SHR_U,
      ...op.i32Add,
      ...scaled(0),
      ...scaled(16),
      ...op.simd(I16X8_NARROW_I32X4_S),
      ...v128Store(0),
    ]),
  ];
  return {
    name: 'quantRows',
    params: Array<'i32'>(7).fill('i32'),
    locals: ['i32', 'i32', 'i32', 'i32', 'f32', 'f32', 'v128', 'v128'],
    body: countedLoop(R, ROWS, 1, row),
  };
})();

const DEQUANT: WasmFunction = (() => {
  const [C, OUT, ROWS, NBYTES, LDC, LDO, ROW_SCALES, COL_SCALES, BIAS] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const [R, J, CR, OR] = [9, 10, 11, 12];
  const RS = 13;
  const row = [
    ...add(get(C), mul(get(R), get(LDC))),
    ...set(CR),
    ...add(get(OUT), mul(get(R), get(LDO))),
    ...set(OR),
    ...add(get(ROW_SCALES), mul(get(R), op.i32(4))),
    ...op.simd(LOAD32_SPLAT, 2, 0),
    ...set(RS),
    ...countedLoop(J, NBYTES, 16, [
      ...add(get(OR), get(J)),
      ...add(get(CR), get(J)),
      ...v128Load(0),
      ...op.simd(F32X4_CONVERT_I32X4_S),
      ...get(RS),
      ...add(get(COL_SCALES), get(J)),
      ...v128Load(0),
      ...op.simd(SIMD.f32x4Mul),
      ...op.simd(SIMD.f32x4Mul),
      ...add(get(BIAS), get(J)),
      ...v128Load(0),
      ...op.simd(SIMD.f32x4Add),
      ...v128Store(0),
    ]),
  ];
  return { name: 'dequant', params: Array<'i32'>(9).fill('i32'), locals: ['i32', 'i32', 'i32', 'i32', 'v128'], body: countedLoop(R, ROWS, 1, row) };
})();

const instances = new WeakMap<WebAssembly.Memory, QuantLoops | null>();

/** The 8-bit loops on this tfjs backend's heap; null off tfjs-wasm or without WebAssembly SIMD. */
export function quantLoops(backend: unknown): QuantLoops | null {
  const memory = backendMemory(backend);
  if (!memory) return null;
  return kernelsOn<QuantLoops>([QUANT_ROWS, qgemm('qgemm4', 4), qgemm('qgemm1', 1), DEQUANT], memory, instances);
}
