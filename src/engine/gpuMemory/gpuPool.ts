import * as tf from '@tensorflow/tfjs';

/**
 * Keeps tfjs-backend-webgpu's buffer pool bounded. Its BufferManager (4.22) never frees a released
 * buffer: it keeps it in `freeBuffers` under its size and usage. Every padded length has its own
 * activation sizes, so the pool grows to hold a working set for every length ever trained while the
 * live tensors stay flat. Between steps, at pauses, after a validation and at the end, `trim()`
 * destroys free buffers until the pool holds at most POOL_FACTOR times the bytes in use, the sizes
 * least recently acquired first: the last steps' sizes keep theirs, so a run whose working set fits
 * allocates nothing new, and one whose lengths vary re-creates only what did not fit.
 */
// A little under the 2× of live tensor bytes the pool is held to: the bytes in use at a trim also
// count a few uniform and staging buffers.
export const POOL_FACTOR = 1.9;

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
  /** The trim count when each pool key (size and usage) was last acquired. */
  private readonly lastAcquired = new Map<string, number>();
  private trims = 0;
  /** The most bytes in use, and allocated, at once since the last takePeak() (for the bench's counters). */
  private peak: number;
  private peakAllocated: number;

  constructor(private readonly pool: BufferPool) {
    this.peak = pool.numBytesUsed;
    this.peakAllocated = pool.numBytesAllocated;
    const acquire = pool.acquireBuffer.bind(pool);
    pool.acquireBuffer = (size, usage, mappedAtCreation, reuse) => {
      this.lastAcquired.set(`${size}_${usage}`, this.trims);
      const b = acquire(size, usage, mappedAtCreation, reuse);
      this.peak = Math.max(this.peak, pool.numBytesUsed);
      this.peakAllocated = Math.max(this.peakAllocated, pool.numBytesAllocated);
      return b;
    };
  }

  /** The peak bytes in use and allocated since the previous call (or since this trimmer was made). */
  takePeak(): { used: number; allocated: number } {
    const p = { used: this.peak, allocated: this.peakAllocated };
    this.peak = this.pool.numBytesUsed;
    this.peakAllocated = this.pool.numBytesAllocated;
    return p;
  }

  /** Destroys free buffers, least recently acquired sizes first, down to POOL_FACTOR × the bytes in use. Call between steps only. */
  trim(): TrimResult {
    let destroyedBuffers = 0;
    let destroyedBytes = 0;
    const budget = POOL_FACTOR * this.pool.numBytesUsed;
    const keys = [...this.pool.freeBuffers.keys()].sort((a, b) => (this.lastAcquired.get(a) ?? -1) - (this.lastAcquired.get(b) ?? -1));
    for (const key of keys) {
      const free = this.pool.freeBuffers.get(key)!;
      while (free.length > 0 && this.pool.numBytesAllocated - destroyedBytes > budget) {
        const b = free.pop()!;
        b.destroy();
        destroyedBytes += b.size;
        destroyedBuffers++;
      }
    }
    this.pool.numBytesAllocated -= destroyedBytes;
    this.pool.numFreeBuffers -= destroyedBuffers;
    this.trims++;
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
