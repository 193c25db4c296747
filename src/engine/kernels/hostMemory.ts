import type * as tf from '@tensorflow/tfjs';

/**
 * Typed-array access to the tensors of the CPU-memory backends (cpu, wasm), for kernels written in
 * TypeScript. Allocate every output before taking views: growing the wasm heap detaches earlier views.
 */
export interface HostMemory {
  alloc(shape: number[]): tf.TensorInfo;
  floats(t: tf.TensorInfo): Float32Array;
  ints(t: tf.TensorInfo): Int32Array;
}

export const HOST_BACKENDS = ['cpu', 'wasm'] as const;
export type HostBackend = (typeof HOST_BACKENDS)[number];

interface WasmBackend {
  makeOutput(shape: number[], dtype: 'float32'): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array | Int32Array;
}
interface CpuBackend {
  data: { get(id: unknown): { values: Float32Array | Int32Array } };
  makeTensorInfo(shape: number[], dtype: 'float32', values: Float32Array): tf.TensorInfo;
}

/** `name`: the backend's, when known; left out, told from the backend object (only WASM's reads its heap). */
export function hostMemory(backend: unknown, name: HostBackend = 'typedArrayFromHeap' in (backend as object) ? 'wasm' : 'cpu'): HostMemory {
  if (name === 'wasm') {
    const b = backend as WasmBackend;
    return {
      alloc: (s) => b.makeOutput(s, 'float32'),
      floats: (t) => b.typedArrayFromHeap(t) as Float32Array,
      ints: (t) => b.typedArrayFromHeap(t) as Int32Array,
    };
  }
  const b = backend as CpuBackend;
  return {
    alloc: (s) => b.makeTensorInfo(s, 'float32', new Float32Array(s.reduce((a, c) => a * c, 1))),
    floats: (t) => b.data.get(t.dataId).values as Float32Array,
    ints: (t) => b.data.get(t.dataId).values as Int32Array,
  };
}

/** tfjs-wasm's allocator, for a kernel's scratch space on its heap (freed by the kernel before it returns). */
export function wasmHeap(backend: unknown): { _malloc(bytes: number): number; _free(ptr: number): void } {
  return (backend as { wasm: { _malloc(bytes: number): number; _free(ptr: number): void } }).wasm;
}
