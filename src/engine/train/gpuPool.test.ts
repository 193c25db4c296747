import { BufferManager } from '@tensorflow/tfjs-backend-webgpu/dist/buffer_manager.js';
import { describe, expect, it } from 'vitest';
import { type BufferPool, GpuPoolTrimmer } from './gpuPool.ts';

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
  it('destroys the free buffers of sizes no step acquired since the last trim, and keeps the count of allocated bytes true', () => {
    const { manager, pool, created, alive } = fakePool();
    const trimmer = new GpuPoolTrimmer(pool);
    step(manager, [1024, 2048]); // length A
    trimmer.trim();
    step(manager, [4096, 2048]); // length B: 1024 is now stale
    const r = trimmer.trim();
    expect(r).toEqual({ destroyedBuffers: 1, destroyedBytes: 1024 });
    expect(created.filter((b) => b.destroyed).map((b) => b.size)).toEqual([1024]);
    expect(manager.numBytesAllocated).toBe(alive());
    expect(manager.numBytesAllocated).toBe(4096 + 2048);
    expect(manager.getNumFreeBuffers()).toBe(2);
  });

  it('creates nothing new in a steady run: the sizes each step uses keep their buffers', () => {
    const { manager, pool, created } = fakePool();
    const trimmer = new GpuPoolTrimmer(pool);
    const sizes = [256, 256, 8192, 65536];
    for (let s = 0; s < 30; s++) {
      step(manager, sizes);
      if (s % 10 === 9) trimmer.trim();
    }
    expect(created.length).toBe(sizes.length);
    expect(created.some((b) => b.destroyed)).toBe(false);
  });

  it('never destroys a buffer in use, and a trimmed size is created again and pooled when it comes back', () => {
    const { manager, pool, created, alive } = fakePool();
    const trimmer = new GpuPoolTrimmer(pool);
    const weights = manager.acquireBuffer(512, STORAGE);
    step(manager, [512, 1000]);
    trimmer.trim();
    trimmer.trim(); // nothing acquired in between: every free buffer goes
    expect(weights).toBe(created[0]);
    expect(created[0].destroyed).toBe(false);
    expect(manager.numBytesAllocated).toBe(512);
    step(manager, [1000]);
    expect(created.length).toBe(4);
    expect(manager.getNumFreeBuffers()).toBe(1);
    expect(manager.numBytesAllocated).toBe(alive());
    manager.releaseBuffer(weights);
    expect(manager.numBytesUsed).toBe(0);
  });
});
