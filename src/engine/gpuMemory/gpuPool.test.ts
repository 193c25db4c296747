import { BufferManager } from '@tensorflow/tfjs-backend-webgpu/dist/buffer_manager.js';
import { describe, expect, it } from 'vitest';
import { type BufferPool, GpuPoolTrimmer, POOL_FACTOR } from './gpuPool.ts';

/** tfjs-webgpu's own BufferManager on a fake device that records what is created and destroyed. */
function fakePool() {
  const created: Array<{ size: number; usage: number; destroyed: boolean; destroy(): void }> = [];
  const device = {
    createBuffer({ size, usage }: { size: number; usage: number }) {
      const b = { size, usage, destroyed: false, destroy: () => void (b.destroyed = true) };
      created.push(b);
      return b;
    },
  };
  const manager = new BufferManager(device as unknown as GPUDevice);
  const pool = manager as unknown as BufferPool;
  const alive = () => created.filter((b) => !b.destroyed).reduce((n, b) => n + b.size, 0);
  return { manager, pool, created, alive };
}

const STORAGE = 0x80 | 0x4 | 0x8;

/** One "step": acquires a buffer per size, then releases them all (activations of one padded length). */
function step(manager: BufferManager, sizes: number[]) {
  const held = sizes.map((s) => manager.acquireBuffer(s, STORAGE));
  for (const b of held) manager.releaseBuffer(b);
}

describe('GpuPoolTrimmer', () => {
  it('destroys free buffers down to POOL_FACTOR × the bytes in use, least recently acquired sizes first, and keeps the count of allocated bytes true', () => {
    const { manager, pool, created, alive } = fakePool();
    const trimmer = new GpuPoolTrimmer(pool);
    const weights = manager.acquireBuffer(6912, STORAGE); // in use throughout: the budget is 1.9 × 6912 = 13132.8
    step(manager, [1024, 2048]); // length A
    trimmer.trim();
    step(manager, [4096, 2048]); // length B: 4096 + 2048 free, and A's 1024, 947.2 over the budget
    expect(POOL_FACTOR * 6912).toBeCloseTo(13132.8, 6);
    expect(manager.numBytesAllocated).toBe(6912 + 1024 + 2048 + 4096);
    const r = trimmer.trim();
    expect(r).toEqual({ destroyedBuffers: 1, destroyedBytes: 1024 });
    expect(created.filter((b) => b.destroyed).map((b) => b.size)).toEqual([1024]);
    expect(manager.numBytesAllocated).toBe(alive());
    expect(manager.numBytesAllocated).toBeLessThanOrEqual(POOL_FACTOR * manager.numBytesUsed);
    expect(manager.getNumFreeBuffers()).toBe(2);
    manager.releaseBuffer(weights);
  });

  it('creates nothing new in a steady run whose working set fits the budget', () => {
    const { manager, pool, created } = fakePool();
    const trimmer = new GpuPoolTrimmer(pool);
    const weights = manager.acquireBuffer(1 << 17, STORAGE);
    const sizes = [256, 256, 8192, 65536];
    for (let s = 0; s < 30; s++) {
      step(manager, sizes);
      trimmer.trim();
    }
    expect(created.length).toBe(sizes.length + 1);
    expect(created.some((b) => b.destroyed)).toBe(false);
    // The peak in use is a step's working set on top of the weights, then starts again from what is in use.
    const workingSet = (1 << 17) + sizes.reduce((a, b) => a + b, 0);
    expect(trimmer.takePeak()).toEqual({ used: workingSet, allocated: workingSet });
    expect(trimmer.takePeak()).toEqual({ used: 1 << 17, allocated: workingSet });
    manager.releaseBuffer(weights);
  });

  it('never destroys a buffer in use, and a trimmed size is created again and pooled when it comes back', () => {
    const { manager, pool, created, alive } = fakePool();
    const trimmer = new GpuPoolTrimmer(pool);
    const weights = manager.acquireBuffer(512, STORAGE);
    step(manager, [512, 1000]);
    trimmer.trim(); // budget 1024: the least recently acquired of 512 and 1000 goes
    manager.releaseBuffer(manager.acquireBuffer(4096, STORAGE));
    trimmer.trim(); // 4096 alone is over the budget: every free buffer goes
    expect(weights).toBe(created[0]);
    expect(created[0].destroyed).toBe(false);
    expect(manager.numBytesAllocated).toBe(512);
    step(manager, [1000]);
    expect(manager.getNumFreeBuffers()).toBe(1);
    expect(manager.numBytesAllocated).toBe(alive());
    manager.releaseBuffer(weights);
    expect(manager.numBytesUsed).toBe(0);
  });
});
