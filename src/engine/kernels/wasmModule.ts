/**
 * Just enough of the WebAssembly binary format to write small SIMD kernels in TypeScript and run them on
 * tfjs-wasm's own heap: the module imports the backend's memory, so a kernel reads and writes tensors
 * where they lie (no copies). Functions are written as opcode bytes with the helpers below; a module that
 * does not validate is refused at instantiation, and every kernel has a parity test against its
 * TypeScript twin, which stays the reference and the fallback.
 */

export type ValType = 'i32' | 'f32' | 'v128';
const VALTYPE: Record<ValType, number> = { i32: 0x7f, f32: 0x7d, v128: 0x7b };

export interface WasmFunction {
  name: string;
  params: ValType[];
  /** Extra locals, after the parameters (local indices continue from them). */
  locals: ValType[];
  body: number[];
}

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(n: number): number[] {
  n |= 0;
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => vec([...new TextEncoder().encode(s)].map((b) => [b]));
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];

/** Pages of 64 KiB in 4 GiB: the most a 32-bit memory has, and the maximum a shared import declares. */
const MAX_PAGES = 65536;

/**
 * The module's bytes: functions of no result, exported by name, over an imported memory env.memory,
 * `shared` where the backend's is (tfjs-wasm's threaded build: an import of a shared memory must say so,
 * with a maximum at least the memory's).
 */
export function moduleBytes(fns: WasmFunction[], shared: boolean): Uint8Array {
  const types = fns.map((f) => [0x60, ...vec(f.params.map((p) => [VALTYPE[p]])), 0]);
  const limits = shared ? [0x03, 0x00, ...uleb(MAX_PAGES)] : [0x00, 0x00];
  const memoryImport = [...name('env'), ...name('memory'), 0x02, ...limits];
  const code = fns.map((f) => {
    const locals = vec(f.locals.map((t) => [1, VALTYPE[t]]));
    const body = [...locals, ...f.body, 0x0b];
    return [...uleb(body.length), ...body];
  });
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(2, vec([memoryImport])),
    ...section(3, vec(fns.map((_, i) => uleb(i)))),
    ...section(7, vec(fns.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vec(code)),
  ]);
}

/** Opcodes used by the kernels (core and SIMD: https://webassembly.github.io/spec/core/binary/instructions.html). */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  else: [0x05],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  tee: (i: number) => [0x22, ...uleb(i)],
  i32: (n: number) => [0x41, ...sleb(n)],
  i32GeU: [0x4f],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  simd: (code: number, ...immediates: number[]) => [0xfd, ...uleb(code), ...immediates],
};

/** SIMD opcodes (after the 0xfd prefix). */
export const SIMD = {
  load: 0x00,
  store: 0x0b,
  const: 0x0c,
  shuffle: 0x0d,
  i32x4Splat: 0x11,
  f32x4Splat: 0x13,
  i32x4GeU: 0x40,
  and: 0x4e,
  or: 0x50,
  xor: 0x51,
  bitselect: 0x52,
  f32x4Nearest: 0x6a,
  i32x4Shl: 0xab,
  i32x4ShrU: 0xad,
  i32x4Add: 0xae,
  i32x4Mul: 0xb5,
  f32x4Abs: 0xe0,
  f32x4Neg: 0xe1,
  f32x4Add: 0xe4,
  f32x4Sub: 0xe5,
  f32x4Mul: 0xe6,
  f32x4Div: 0xe7,
  f32x4Max: 0xe9,
  i32x4TruncSatF32x4S: 0xf8,
} as const;

/** A counted loop: local `i` from 0 while below local `end`, `body`, then i += step (bytes or elements, as the body counts). */
export function countedLoop(i: number, end: number, step: number, body: number[]): number[] {
  return [
    ...op.i32(0),
    ...op.set(i),
    ...op.block,
    ...op.loop,
    ...op.get(i),
    ...op.get(end),
    ...op.i32GeU,
    ...op.brIf(1),
    ...body,
    ...op.get(i),
    ...op.i32(step),
    ...op.i32Add,
    ...op.set(i),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}

/** v128.load / v128.store at the address on the stack (+ offset), alignment 1 (any address). */
export const v128Load = (offset = 0) => op.simd(SIMD.load, 0, ...uleb(offset));
export const v128Store = (offset = 0) => op.simd(SIMD.store, 0, ...uleb(offset));

/** A v128 constant of four f32 lanes, all `v`. */
export function f32x4Const(v: number): number[] {
  const bytes = new Uint8Array(new Float32Array([v, v, v, v]).buffer);
  return op.simd(SIMD.const, ...bytes);
}

/** A v128 constant of four i32 lanes. */
export function i32x4Const(lanes: [number, number, number, number]): number[] {
  const bytes = new Uint8Array(new Int32Array(lanes).buffer);
  return op.simd(SIMD.const, ...bytes);
}

/**
 * The memory of a tfjs-wasm backend, or null when not one: its Emscripten module exports it (`asm.memory`)
 * or, in the threaded build, made it and keeps it as `wasmMemory`.
 */
export function backendMemory(backend: unknown): WebAssembly.Memory | null {
  const wasm = (backend as { wasm?: { asm?: { memory?: unknown }; wasmMemory?: unknown } }).wasm;
  const m = wasm?.asm?.memory ?? wasm?.wasmMemory;
  return m instanceof WebAssembly.Memory ? m : null;
}

/**
 * Instantiates a kernel module of `fns` on `memory` once per memory (a backend lives as long as its
 * memory). Null where WebAssembly SIMD is missing or the module does not validate: the caller falls back.
 */
export function kernelsOn<T>(fns: WasmFunction[], memory: WebAssembly.Memory, cache: WeakMap<WebAssembly.Memory, T | null>): T | null {
  if (cache.has(memory)) return cache.get(memory)!;
  let exports: T | null = null;
  try {
    const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes(fns, shared) as BufferSource), { env: { memory } });
    exports = instance.exports as T;
  } catch {
    exports = null;
  }
  cache.set(memory, exports);
  return exports;
}
