import { type WasmFunction, SIMD, backendMemory, countedLoop, kernelsOn, op, v128Load, v128Store } from '../wasmModule.ts';

/**
 * The host LayerNorm's forward (kernels/layerNorm/host.ts) in WebAssembly SIMD on tfjs-wasm's heap, for
 * rows of d values, d a multiple of 4, in float64 as its TypeScript twin (which stays the reference):
 *   rowSums:    out[r] = row r's sum as four float64 partial sums (32 bytes a row);
 *   rowSquares: the same of (x − mean_r)², mean_r a float64 at means + 8r;
 *   normalize:  y = (x − mean_r) · rstd_r · w + b, in float64, rounded once.
 * The caller adds each row's four partial sums and derives mean_r and rstd_r between the passes.
 */
export interface LayerNormLoops {
  rowSums(x: number, out: number, rows: number, dBytes: number): void;
  rowSquares(x: number, means: number, out: number, rows: number, dBytes: number): void;
  normalize(x: number, y: number, w: number, b: number, means: number, rstds: number, rows: number, dBytes: number): void;
}

const LOAD64_SPLAT = 0x0a;
const [F32X4_DEMOTE_F64X2_ZERO, F64X2_PROMOTE_LOW_F32X4, F64X2_ADD, F64X2_SUB, F64X2_MUL] = [0x5e, 0x5f, 0xf0, 0xf1, 0xf2];
type Code = number[];
const get = op.get;
const set = (i: number, v: Code): Code => [...v, ...op.set(i)];
const f64 =
  (code: number) =>
  (a: Code, b: Code): Code => [...a, ...b, ...op.simd(code)];
const [add, sub, mul] = [F64X2_ADD, F64X2_SUB, F64X2_MUL].map(f64);
const i32 =
  (code: number[]) =>
  (a: Code, b: Code): Code => [...a, ...b, ...code];
const [iadd, imul] = [op.i32Add, op.i32Mul].map(i32);
/** A v128's float32 lanes 0, 1 (low) or 2, 3 (high) as float64. */
const low = (v: Code): Code => [...v, ...op.simd(F64X2_PROMOTE_LOW_F32X4)];
const high = (v: Code): Code => low([...v, ...v, ...op.simd(SIMD.shuffle, ...[8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7])]);
const splat64 = (address: Code): Code => [...address, ...op.simd(LOAD64_SPLAT, 3, 0)];
const zero: Code = op.simd(SIMD.const, ...new Array<number>(16).fill(0));

/**
 * A pass over every row with two float64x2 accumulators, stored at out + 32r: of the values (rowSums:
 * x, out, rows, dBytes) or of their squared distances to the row's mean (rowSquares: x, means, out, rows, dBytes).
 */
function sumsPass(squares: boolean): WasmFunction {
  const names = squares ? ['x', 'means', 'out', 'rows', 'dBytes'] : ['x', 'out', 'rows', 'dBytes'];
  const params = names.length;
  const [X, MEANS, OUT, ROWS, DBYTES] = ['x', 'means', 'out', 'rows', 'dBytes'].map((n) => names.indexOf(n));
  const [R, I, ROW, LO, HI, V, M, D] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => params + i);
  const term = (half: Code): Code => (squares ? mul([...sub(half, get(M)), ...op.tee(D)], get(D)) : half);
  return {
    name: squares ? 'rowSquares' : 'rowSums',
    params: Array<'i32'>(params).fill('i32'),
    locals: ['i32', 'i32', 'i32', 'v128', 'v128', 'v128', 'v128', 'v128'],
    body: countedLoop(R, ROWS, 1, [
      ...set(ROW, iadd(get(X), imul(get(R), get(DBYTES)))),
      ...set(LO, zero),
      ...set(HI, zero),
      ...(squares ? set(M, splat64(iadd(get(MEANS), imul(get(R), op.i32(8))))) : []),
      ...countedLoop(I, DBYTES, 16, [
        ...set(V, [...iadd(get(ROW), get(I)), ...v128Load()]),
        ...set(LO, add(get(LO), term(low(get(V))))),
        ...set(HI, add(get(HI), term(high(get(V))))),
      ]),
      ...iadd(get(OUT), imul(get(R), op.i32(32))),
      ...get(LO),
      ...v128Store(0),
      ...iadd(get(OUT), imul(get(R), op.i32(32))),
      ...get(HI),
      ...v128Store(16),
    ]),
  };
}

const [ROW_SUMS, ROW_SQUARES] = [sumsPass(false), sumsPass(true)];

const NORMALIZE: WasmFunction = (() => {
  const [X, Y, W, B, MEANS, RSTDS, ROWS, DBYTES] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [R, I, IN, OUT, M, S, V, WV, BV, LO, HI] = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
  const half = (part: (v: Code) => Code): Code => add(mul(mul(sub(part(get(V)), get(M)), get(S)), part(get(WV))), part(get(BV)));
  return {
    name: 'normalize',
    params: Array<'i32'>(8).fill('i32'),
    locals: ['i32', 'i32', 'i32', 'i32', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128'],
    body: countedLoop(R, ROWS, 1, [
      ...set(IN, iadd(get(X), imul(get(R), get(DBYTES)))),
      ...set(OUT, iadd(get(Y), imul(get(R), get(DBYTES)))),
      ...set(M, splat64(iadd(get(MEANS), imul(get(R), op.i32(8))))),
      ...set(S, splat64(iadd(get(RSTDS), imul(get(R), op.i32(8))))),
      ...countedLoop(I, DBYTES, 16, [
        ...set(V, [...iadd(get(IN), get(I)), ...v128Load()]),
        ...set(WV, [...iadd(get(W), get(I)), ...v128Load()]),
        ...set(BV, [...iadd(get(B), get(I)), ...v128Load()]),
        ...set(LO, [...half(low), ...op.simd(F32X4_DEMOTE_F64X2_ZERO)]),
        ...set(HI, [...half(high), ...op.simd(F32X4_DEMOTE_F64X2_ZERO)]),
        ...iadd(get(OUT), get(I)),
        ...get(LO),
        ...get(HI),
        ...op.simd(SIMD.shuffle, ...[0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]),
        ...v128Store(),
      ]),
    ]),
  };
})();

const instances = new WeakMap<WebAssembly.Memory, LayerNormLoops | null>();

/** The SIMD LayerNorm loops on this tfjs backend's heap; null off tfjs-wasm or without WebAssembly SIMD. */
export function simdLayerNorm(backend: unknown): LayerNormLoops | null {
  const memory = backendMemory(backend);
  return memory ? kernelsOn([ROW_SUMS, ROW_SQUARES, NORMALIZE], memory, instances) : null;
}
