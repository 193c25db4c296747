import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { expect, it } from 'vitest';
import { HEAP_RESERVE_BYTES, warmUp } from './warmUp.ts';
import { activeProfile } from '../backend/profile.ts';

it('warmUp on WASM leaves the heap grown by the reserve and no tensor behind', async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
  const heap = () => (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.length;
  const before = { tensors: tf.memory().numTensors, heap: heap(), rss: process.memoryUsage().rss };
  await warmUp(activeProfile(), HEAP_RESERVE_BYTES, false);
  // Not written: the grown heap is not resident until used (a written reserve adds all 160 MiB).
  expect(process.memoryUsage().rss - before.rss).toBeLessThan(HEAP_RESERVE_BYTES / 4);
  expect(tf.memory().numTensors).toBe(before.tensors);
  expect(before.heap).toBeLessThan(HEAP_RESERVE_BYTES);
  expect(heap()).toBeGreaterThanOrEqual(HEAP_RESERVE_BYTES);
  // The reserve is free memory the next allocations reuse: a tensor of that size does not grow the heap again.
  const grown = heap();
  tf.fill([HEAP_RESERVE_BYTES / 8], 1).dispose();
  expect(heap()).toBe(grown);
});
