import { type WasmFunction, backendMemory, countedLoop, kernelsOn, op, v128Load, v128Store } from '../wasmModule.ts';

/**
 * Strided copies on tfjs-wasm's heap, 16 bytes at a time: `runs` runs of `bytes` (a multiple of 16), the
 * r-th from src + r·srcStride to dst + r·dstStride. The attention heads' blocks are such runs of rows
 * (kernels/raggedHeads/host.ts). A copy: the same bits as any.
 */
export type CopyRuns = (src: number, srcStride: number, dst: number, dstStride: number, runs: number, bytes: number) => void;

const [SRC, SRC_STRIDE, DST, DST_STRIDE, RUNS, BYTES, R, O] = [0, 1, 2, 3, 4, 5, 6, 7];
const get = op.get;

const COPY_RUNS: WasmFunction = {
  name: 'copyRuns',
  params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'],
  locals: ['i32', 'i32'],
  body: countedLoop(R, RUNS, 1, [
    ...countedLoop(O, BYTES, 16, [...get(DST), ...get(O), ...op.i32Add, ...get(SRC), ...get(O), ...op.i32Add, ...v128Load(), ...v128Store()]),
    ...get(SRC),
    ...get(SRC_STRIDE),
    ...op.i32Add,
    ...op.set(SRC),
    ...get(DST),
    ...get(DST_STRIDE),
    ...op.i32Add,
    ...op.set(DST),
  ]),
};

const instances = new WeakMap<WebAssembly.Memory, { copyRuns: CopyRuns } | null>();

/** The strided copy on this tfjs backend's heap; null off tfjs-wasm or without WebAssembly SIMD. */
export function simdCopyRuns(backend: unknown): CopyRuns | null {
  const memory = backendMemory(backend);
  return memory ? (kernelsOn([COPY_RUNS], memory, instances)?.copyRuns ?? null) : null;
}
