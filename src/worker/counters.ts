import * as tf from '@tensorflow/tfjs';

/**
 * Work counters for the benchmarks: kernels run by tfjs (every backend) and, on WebGPU, compute
 * dispatches, queue submits, uniform-buffer writes, other upload bytes, buffer maps (readbacks) and
 * pipelines created; plus GPU bytes allocated by the backend's pool against the bytes of live tensors.
 * Installed on request only (the bench's `counters` command): it wraps prototypes, nothing else changes.
 */
export interface EngineCounters {
  kernels: number;
  dispatches: number;
  submits: number;
  uniformWrites: number;
  uploadBytes: number;
  readbacks: number;
  pipelines: number;
  /** Eval batches scored by the scoring peers (other cores), counted whether or not the counters are installed. */
  peerBatches: number;
  liveTensorBytes: number;
  /** WebGPU only: bytes in the backend's buffer pool, live or free (null elsewhere). */
  gpuBytesAllocated: number | null;
}

const counts = { kernels: 0, dispatches: 0, submits: 0, uniformWrites: 0, uploadBytes: 0, readbacks: 0, pipelines: 0, peerBatches: 0 };

export const countPeerBatch = () => void counts.peerBatches++;
let installed = false;

type Method = (...args: unknown[]) => unknown;

function wrap(proto: object | undefined, name: string, count: (self: unknown, args: unknown[]) => void): void {
  if (!proto) return;
  const original = (proto as Record<string, Method | undefined>)[name];
  if (typeof original !== 'function') return;
  (proto as Record<string, Method>)[name] = function (this: unknown, ...args: unknown[]) {
    count(this, args);
    return original.apply(this, args);
  };
}

const UNIFORM_USAGE = 0x40;

export function installCounters(): void {
  if (installed) return;
  installed = true;
  wrap(Object.getPrototypeOf(tf.engine()), 'runKernelFunc', () => counts.kernels++);
  const g = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  wrap(g.GPUComputePassEncoder?.prototype, 'dispatchWorkgroups', () => counts.dispatches++);
  wrap(g.GPUQueue?.prototype, 'submit', () => counts.submits++);
  wrap(g.GPUQueue?.prototype, 'writeBuffer', (_self, args) => {
    const buffer = args[0] as { usage: number };
    if (buffer.usage & UNIFORM_USAGE) counts.uniformWrites++;
    else counts.uploadBytes += (args[2] as ArrayBufferView | ArrayBuffer).byteLength;
  });
  wrap(g.GPUBuffer?.prototype, 'mapAsync', () => counts.readbacks++);
  wrap(g.GPUDevice?.prototype, 'createComputePipeline', () => counts.pipelines++);
  wrap(g.GPUDevice?.prototype, 'createComputePipelineAsync', () => counts.pipelines++);
}

export function readCounters(): EngineCounters {
  const m = tf.memory() as tf.MemoryInfo & { numBytesAllocatedInGPU?: number };
  return { ...counts, liveTensorBytes: m.numBytes, gpuBytesAllocated: m.numBytesAllocatedInGPU ?? null };
}
