import * as tf from '@tensorflow/tfjs';

/**
 * Keeps tfjs-backend-webgpu's buffer pool bounded. Its BufferManager (4.22) never frees a released
 * buffer: it keeps it in `freeBuffers` under its size and usage. Every padded length has its own
 * activation sizes, so the pool grows to hold a working set for every length ever trained (hundreds of
 * MB for the tiny preset) while the live tensors stay flat. `trim()` destroys free buffers, the sizes
 * least recently acquired first, until the pool holds at most POOL_FACTOR times the bytes in use: at a
 * pause, after a validation, at the end. Between steps `trim({ keepWorkingSet: true })` keeps as much
 * as the last steps had in use at their peak, which they need again anyway: trimming below it made a
 * step create and destroy its activations' buffers every time (24–46 buffers a step on an H100, a
 * few milliseconds of the engine thread), for no lower peak.
 */
// Under the 2× of live tensor bytes the pool is held to: the bytes in use at a trim also hold a few
// uniform and staging buffers, and a factor of 2 here left the pool at 2.005× the live tensors.
export const POOL_FACTOR = 1.9;
/** How many recent steps' peak in use a between-steps trim keeps room for. */
export const WORKING_SET_STEPS = 8;

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
  /** The most bytes in use since the last trim, and at the last WORKING_SET_STEPS trims. */
  private sinceTrim: number;
  private readonly recentPeaks: number[] = [];

  constructor(private readonly pool: BufferPool) {
    this.peak = this.sinceTrim = pool.numBytesUsed;
    this.peakAllocated = pool.numBytesAllocated;
    const acquire = pool.acquireBuffer.bind(pool);
    pool.acquireBuffer = (size, usage, mappedAtCreation, reuse) => {
      this.lastAcquired.set(`${size}_${usage}`, this.trims);
      const b = acquire(size, usage, mappedAtCreation, reuse);
      this.peak = Math.max(this.peak, pool.numBytesUsed);
      this.sinceTrim = Math.max(this.sinceTrim, pool.numBytesUsed);
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

  /**
   * Destroys free buffers, least recently acquired sizes first, down to POOL_FACTOR × the bytes in use,
   * or with `keepWorkingSet` (between two steps) to no less than the recent steps' peak in use. Call
   * between steps only.
   */
  trim(opts: { keepWorkingSet?: boolean } = {}): TrimResult {
    let destroyedBuffers = 0;
    let destroyedBytes = 0;
    this.recentPeaks.push(this.sinceTrim);
    if (this.recentPeaks.length > WORKING_SET_STEPS) this.recentPeaks.shift();
    this.sinceTrim = this.pool.numBytesUsed;
    const budget = Math.max(POOL_FACTOR * this.pool.numBytesUsed, opts.keepWorkingSet ? Math.max(...this.recentPeaks) : 0);
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
