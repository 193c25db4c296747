import * as tf from '@tensorflow/tfjs';
import { gpuPoolTrimmer } from '../../engine/gpuMemory/gpuPool.ts';
import { replaySummary } from '../../engine/kernels/webgpu/replay/stepReplay.ts';

/**
 * Work counters for the benchmarks: kernels run by tfjs (every backend) and, on WebGPU, compute
 * dispatches, queue submits, uniform-buffer writes, upload bytes, buffer maps (readbacks), pipelines and
 * buffers created; plus GPU bytes allocated by the backend's pool against the bytes of live tensors, and
 * the pool's peak bytes in use. Installed on request only (the bench's `counters` command): it wraps
 * prototypes (the pool's peak comes from its trimmer, gpuMemory/gpuPool.ts), nothing else changes.
 */
export interface EngineCounters {
  kernels: number;
  dispatches: number;
  submits: number;
  uniformWrites: number;
  /** Bytes written into GPU buffers: queue.writeBuffer (uniforms aside) and mapped buffers (tfjs uploads tensors so). */
  uploadBytes: number;
  readbacks: number;
  pipelines: number;
  /** GPUDevice.createBuffer calls: pool misses, plus tfjs's one-off staging buffer per upload into a reused buffer. */
  buffersCreated: number;
  /** GPUDevice.createBindGroup calls: tfjs makes one per dispatch; a replayed step none. */
  bindGroups: number;
  /** Eval batches scored by the scoring peers (other cores), counted whether or not the counters are installed. */
  peerBatches: number;
  /** Training steps whose later half a peer (the other core) computed and the engine used (sharedStep.ts). */
  peerSteps: number;
  /**
   * Wall ms on the engine's thread inside tfjs kernels (the outermost ones): the CPU side of the work, on
   * WebGPU recording and submitting it, which bounds steps/s however fast the GPU is. Counts time the
   * thread is descheduled too: on a busy machine (a software GPU's threads) it reads high.
   */
  kernelMs: number;
  /** kernelMs by kernel name (a custom-gradient op without one: 'customOp'): where the engine thread's time goes. */
  kernelMsByName: Record<string, number>;
  /** WebGPU steps and scoring batches recorded, and replayed (kernels/webgpu/replay/stepReplay.ts). */
  recordings: number;
  replays: number;
  /** Wall ms on the engine's thread replaying them (writing inputs, encoding, submitting): outside tfjs's kernels. */
  replayMs: number;
  /** Recorded shapes kept, and the GPU bytes they hold (their own buffers and the shared arena). */
  captures: number;
  captureBytes: number;
  liveTensorBytes: number;
  /** WebGPU only: bytes in the backend's buffer pool, live or free (null elsewhere). */
  gpuBytesAllocated: number | null;
  /** WebGPU only: the most bytes the pool had in use at once since the previous read (a step's working set). */
  gpuPeakBytesUsed: number | null;
  /** WebGPU only: the most bytes the pool held (in use and free) at once since the previous read. */
  gpuPeakBytesAllocated: number | null;
}

const counts = {
  kernels: 0,
  dispatches: 0,
  submits: 0,
  uniformWrites: 0,
  uploadBytes: 0,
  readbacks: 0,
  pipelines: 0,
  buffersCreated: 0,
  bindGroups: 0,
  peerBatches: 0,
  peerSteps: 0,
  kernelMs: 0,
};

let byName: Record<string, number> = {};

export const countPeerBatch = () => void counts.peerBatches++;
export const countPeerStep = () => void counts.peerSteps++;
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

/** Counts each call and times the outermost ones (kernels run kernels). */
function timeOutermost(proto: object, name: string): void {
  const original = (proto as Record<string, Method>)[name];
  let depth = 0;
  (proto as Record<string, Method>)[name] = function (this: unknown, ...args: unknown[]) {
    counts.kernels++;
    if (depth > 0) return original.apply(this, args);
    const t0 = performance.now();
    depth++;
    try {
      return original.apply(this, args);
    } finally {
      depth--;
      const ms = performance.now() - t0;
      counts.kernelMs += ms;
      const kernel = (args[0] as { kernelName?: string } | undefined)?.kernelName ?? 'customOp';
      byName[kernel] = (byName[kernel] ?? 0) + ms;
    }
  };
}

const MAP_READ_USAGE = 0x1;
const UNIFORM_USAGE = 0x40;

export function installCounters(): void {
  if (installed) return;
  installed = true;
  timeOutermost(Object.getPrototypeOf(tf.engine()), 'runKernelFunc');
  const g = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  wrap(g.GPUComputePassEncoder?.prototype, 'dispatchWorkgroups', () => counts.dispatches++);
  wrap(g.GPUQueue?.prototype, 'submit', () => counts.submits++);
  wrap(g.GPUQueue?.prototype, 'writeBuffer', (_self, args) => {
    const buffer = args[0] as { usage: number };
    if (buffer.usage & UNIFORM_USAGE) counts.uniformWrites++;
    else counts.uploadBytes += (args[2] as ArrayBufferView | ArrayBuffer).byteLength;
  });
  // tfjs-webgpu 4.22 uploads tensor data by writing into a buffer mapped at creation, or into a staging
  // buffer then copied (uploadToGPU): a mapped range of any buffer that is not for reading back.
  wrap(g.GPUBuffer?.prototype, 'getMappedRange', (self, args) => {
    const b = self as { usage: number; size: number };
    if (b.usage & MAP_READ_USAGE) return;
    const offset = (args[0] as number | undefined) ?? 0;
    counts.uploadBytes += (args[1] as number | undefined) ?? b.size - offset;
  });
  wrap(g.GPUBuffer?.prototype, 'mapAsync', () => counts.readbacks++);
  wrap(g.GPUDevice?.prototype, 'createBuffer', () => counts.buffersCreated++);
  wrap(g.GPUDevice?.prototype, 'createBindGroup', () => counts.bindGroups++);
  wrap(g.GPUDevice?.prototype, 'createComputePipeline', () => counts.pipelines++);
  wrap(g.GPUDevice?.prototype, 'createComputePipelineAsync', () => counts.pipelines++);
  // The pool's peak in use is followed by its trimmer, made here if training has not made it yet.
  gpuPoolTrimmer()?.takePeak();
}

/** Back to zero, as in a fresh worker (the Node bench runs one engine after another in one process). */
export function resetCounters(): void {
  for (const k of Object.keys(counts) as Array<keyof typeof counts>) counts[k] = 0;
  byName = {};
  replayBase = replaySummary();
}

/** The replay figures when the counters were last reset (a backend's cache lives on across Node engines). */
let replayBase: ReturnType<typeof replaySummary> = null;

export function readCounters(): EngineCounters {
  const m = tf.memory() as tf.MemoryInfo & { numBytesAllocatedInGPU?: number };
  // The current backend's trimmer: a backend switch brings a new pool and a new trimmer.
  const peak = installed ? (gpuPoolTrimmer()?.takePeak() ?? null) : null;
  const r = replaySummary();
  const since = (k: 'recordings' | 'replays' | 'replayMs') => (r?.[k] ?? 0) - (replayBase?.[k] ?? 0);
  return {
    ...counts,
    kernelMsByName: { ...byName },
    recordings: since('recordings'),
    replays: since('replays'),
    replayMs: since('replayMs'),
    captures: r?.captures ?? 0,
    captureBytes: r?.bytes ?? 0,
    liveTensorBytes: m.numBytes,
    gpuBytesAllocated: m.numBytesAllocatedInGPU ?? null,
    gpuPeakBytesUsed: peak?.used ?? null,
    gpuPeakBytesAllocated: peak?.allocated ?? null,
  };
}
