import * as tf from '@tensorflow/tfjs';

/**
 * Keeps tfjs-backend-webgpu's buffer pool bounded. Its BufferManager (4.22) never frees a released
 * buffer: it keeps it in `freeBuffers` under its size and usage. Every padded length has its own
 * activation sizes, so the pool grows to hold a working set for every length ever trained (hundreds of
 * MB for the tiny preset) while the live tensors stay flat. Between steps, `trim()` destroys the free
 * buffers of sizes that no step acquired since the previous trim: sizes still in use keep theirs, so a
 * steady run allocates nothing new.
 */

/** The parts of tfjs-backend-webgpu 4.22's BufferManager read and changed here. */
export interface PooledBuffer {
  readonly size: number;
  readonly usage: number;
  destroy(): void;
}
export interface BufferPool {
  freeBuffers: Map<string, PooledBuffer[]>;
  numBytesUsed: number;
  numBytesAllocated: number;
  numFreeBuffers: number;
  acquireBuffer(size: number, usage: number, mappedAtCreation?: boolean, reuse?: boolean): PooledBuffer;
}

export interface TrimResult {
  destroyedBuffers: number;
  destroyedBytes: number;
}

export class GpuPoolTrimmer {
  /** Pool keys acquired since the last trim (the pool's own key: size and usage). */
  private acquired = new Set<string>();

  constructor(private readonly pool: BufferPool) {
    const acquire = pool.acquireBuffer.bind(pool);
    pool.acquireBuffer = (size, usage, mappedAtCreation, reuse) => {
      this.acquired.add(`${size}_${usage}`);
      return acquire(size, usage, mappedAtCreation, reuse);
    };
  }

  /** Destroys the free buffers of every key not acquired since the last trim. Call between steps only. */
  trim(): TrimResult {
    let destroyedBuffers = 0;
    let destroyedBytes = 0;
    for (const [key, free] of this.pool.freeBuffers) {
      if (this.acquired.has(key) || free.length === 0) continue;
      for (const b of free) {
        b.destroy();
        destroyedBytes += b.size;
      }
      destroyedBuffers += free.length;
      free.length = 0;
    }
    this.pool.numBytesAllocated -= destroyedBytes;
    this.pool.numFreeBuffers -= destroyedBuffers;
    this.acquired.clear();
    return { destroyedBuffers, destroyedBytes };
  }
}

const trimmers = new WeakMap<object, GpuPoolTrimmer | null>();

/** The trimmer of the current tfjs backend's pool; null on backends without one (CPU, WASM). */
export function gpuPoolTrimmer(): GpuPoolTrimmer | null {
  const backend = tf.backend() as unknown as { bufferManager?: BufferPool };
  let t = trimmers.get(backend);
  if (t === undefined) {
    t = isBufferPool(backend.bufferManager) ? new GpuPoolTrimmer(backend.bufferManager) : null;
    trimmers.set(backend, t);
  }
  return t;
}

function isBufferPool(p: unknown): p is BufferPool {
  const m = p as Partial<BufferPool> | undefined;
  return !!m && m.freeBuffers instanceof Map && typeof m.acquireBuffer === 'function' && typeof m.numBytesAllocated === 'number';
}
