import { type WasmFunction, SIMD, backendMemory, countedLoop, kernelsOn, op, v128Load, v128Store } from './module.ts';

/**
 * The host transpose's loop (kernels/hostTranspose.ts) in WebAssembly SIMD on tfjs-wasm's heap: a
 * [rows, cols] float32 matrix at `src` into [cols, rows] at `dst`, 4×4 blocks at a time (four rows
 * loaded, shuffled, stored as four rows), over the first rows4 rows and cols4 columns (multiples of 4;
 * the caller copies the rest). A copy of values: the same bits as any transpose.
 */
export type TransposeLoop = (src: number, dst: number, rows: number, cols: number, rows4: number, cols4: number) => void;

const [SRC, DST, ROWS, COLS, ROWS4, COLS4, R, C, IN, OUT, A, B, Cv, D, T0, T1, T2, T3] = Array.from({ length: 18 }, (_, i) => i);
const get = op.get;

/** i8x16.shuffle taking i32 lanes: indices 0–3 from the first operand, 4–7 from the second. */
const lanes = (a: number[], b: number[], pick: [number, number, number, number]) => [...a, ...b, ...op.simd(SIMD.shuffle, ...pick.flatMap((l) => [0, 1, 2, 3].map((k) => 4 * l + k)))];




const TRANSPOSE: WasmFunction = {
  name: 'transpose',
  params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'],
  // r and c, the block's source and destination addresses, then its four rows and the shuffles' halves.
  locals: ['i32', 'i32', 'i32', 'i32', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128', 'v128'],
  body: countedLoop(R, ROWS4, 4, countedLoop(C, COLS4, 4, [
    // IN = src + 4·(r·cols + c); OUT = dst + 4·(c·rows + r).
    ...get(SRC), ...get(R), ...get(COLS), ...op.i32Mul, ...get(C), ...op.i32Add, ...op.i32(4), ...op.i32Mul, ...op.i32Add, ...op.set(IN),
    ...get(DST), ...get(C), ...get(ROWS), ...op.i32Mul, ...get(R), ...op.i32Add, ...op.i32(4), ...op.i32Mul, ...op.i32Add, ...op.set(OUT),
    ...[A, B, Cv, D].flatMap((v, k) => [...get(IN), ...(k ? [...get(COLS), ...op.i32(4 * k), ...op.i32Mul, ...op.i32Add] : []), ...v128Load(), ...op.set(v)]),
    ...lanes(get(A), get(B), [0, 4, 1, 5]), ...op.set(T0),
    ...lanes(get(A), get(B), [2, 6, 3, 7]), ...op.set(T1),
    ...lanes(get(Cv), get(D), [0, 4, 1, 5]), ...op.set(T2),
    ...lanes(get(Cv), get(D), [2, 6, 3, 7]), ...op.set(T3),
    ...[[T0, T2, [0, 1, 4, 5]], [T0, T2, [2, 3, 6, 7]], [T1, T3, [0, 1, 4, 5]], [T1, T3, [2, 3, 6, 7]]].flatMap(([x, y, pick], k) => [
      ...get(OUT), ...(k ? [...get(ROWS), ...op.i32(4 * k), ...op.i32Mul, ...op.i32Add] : []),
      ...lanes(get(x as number), get(y as number), pick as [number, number, number, number]),
      ...v128Store(),
    ]),
  ])),
};

const instances = new WeakMap<WebAssembly.Memory, { transpose: TransposeLoop } | null>();

/** The SIMD transpose on this tfjs backend's heap; null off tfjs-wasm or without WebAssembly SIMD. */
export function simdTranspose(backend: unknown): TransposeLoop | null {
  const memory = backendMemory(backend);
  return memory ? (kernelsOn([TRANSPOSE], memory, instances)?.transpose ?? null) : null;
}
