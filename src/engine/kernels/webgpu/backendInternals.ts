import type * as tf from '@tensorflow/tfjs';
import type { Uniform } from './program.ts';

/**
 * The parts of tfjs-backend-webgpu 4.22's backend that this project's WebGPU code reaches past the public
 * API for (internal, hence the local types): in-place dispatches (inPlace.ts) and step replay (replay/).
 */
export interface TensorData {
  resource: unknown;
  values: unknown;
  refCount: number;
  dtype: string;
  shape: number[];
}

/** tfjs-backend-webgpu's BufferManager: a pool of freed buffers by size and usage. */
export interface BufferManagerInternals {
  freeBuffers: Map<string, GPUBuffer[]>;
  usedBuffers: Map<string, GPUBuffer[]>;
  numUsedBuffers: number;
  numFreeBuffers: number;
  numBytesUsed: number;
  numBytesAllocated: number;
  acquireBuffer(size: number, usage: number, mappedAtCreation?: boolean, reuse?: boolean): GPUBuffer;
  releaseBuffer(buffer: GPUBuffer, reuse?: boolean): void;
}

export interface BackendInternals {
  device: GPUDevice;
  queue: GPUQueue;
  tensorMap: { get(id: unknown): TensorData | undefined; has(id: unknown): boolean };
  bufferManager: BufferManagerInternals;
  uploadToGPU(id: unknown): void;
  makeUniforms(u: Uniform[]): GPUBufferBinding;
  makeTensorInfo(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  ensureCommandEncoderReady(): void;
  endComputePassEncoder(): void;
  submitQueue(): void;
  commandEncoder: GPUCommandEncoder | null;
  computePassEncoder: GPUComputePassEncoder | null;
  commandQueueOwnedIds: WeakSet<object>;
  dispatchCountInPass: number;
}

export const internals = (backend: unknown) => backend as BackendInternals;

/** GPUBufferUsage's flags, as numbers: the constants object is missing where no WebGPU is installed (Node tests). */
export const USAGE = { MAP_READ: 0x1, MAP_WRITE: 0x2, COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80 } as const;

/** tfjs's pool key of a buffer. */
export const poolKey = (size: number, usage: number) => `${size}_${usage}`;
