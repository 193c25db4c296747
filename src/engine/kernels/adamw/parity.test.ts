import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import './host.ts';
import { adamwKernelParity } from './parity.ts';

describe('the fused AdamW kernel equals the tf composition', () => {
  for (const backend of ['cpu', 'wasm']) {
    it(`on ${backend}: p, m and v within 1e-6 of each tensor's largest entry over three steps with clipping; a step with apply false changes none`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const r = await adamwKernelParity();
      expect(r.p).toBeLessThan(1e-6);
      expect(r.m).toBeLessThan(1e-6);
      expect(r.v).toBeLessThan(1e-6);
      // The steps moved the weights, so the comparison is not between two untouched copies.
      expect(r.moved).toBeGreaterThan(1e-3);
      // The fourth step has a NaN gradient and apply false: p, m and v come out bit for bit as they went in.
      expect(r.skipMoved).toBe(0);
    });
  }
});
