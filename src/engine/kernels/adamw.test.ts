import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../data/rng.ts';
import { adamwUpdate, composedAdamW } from './adamw.ts';

const rng = createRng(3);
const rand = (n: number, scale = 1) => Float32Array.from({ length: n }, () => (rng.next() * 2 - 1) * scale);

describe('the fused AdamW kernel equals the tf composition', () => {
  for (const backend of ['cpu', 'wasm']) {
    it(`on ${backend}: p, m and v within 1e-6 of each tensor's largest entry over three steps with clipping`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const n = 1000;
      const init = { p: rand(n), m: rand(n, 1e-2), v: rand(n, 1e-4).map(Math.abs) };
      const states = [init, init].map((s) => ({ p: tf.tensor(s.p), m: tf.tensor(s.m), v: tf.tensor(s.v) }));
      for (let t = 1; t <= 3; t++) {
        const g = tf.tensor(rand(n, 0.1));
        const scale = tf.scalar(0.7);
        const s = { lr: 1e-3 * t, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, t };
        [adamwUpdate, composedAdamW].forEach((f, i) => {
          const [p, m, v] = f(states[i].p, states[i].m, states[i].v, g, scale, s);
          tf.dispose([states[i].p, states[i].m, states[i].v]);
          states[i] = { p, m, v };
        });
        tf.dispose([g, scale]);
      }
      for (const key of ['p', 'm', 'v'] as const) {
        const a = states[0][key].dataSync();
        const b = states[1][key].dataSync();
        // Relative to the tensor's largest entry: m passes through 0 where β1·m and (1−β1)·g cancel.
        let worst = 0;
        let scale = 0;
        for (let i = 0; i < n; i++) {
          worst = Math.max(worst, Math.abs(a[i] - b[i]));
          scale = Math.max(scale, Math.abs(b[i]));
        }
        expect(worst / scale, key).toBeLessThan(1e-6);
      }
      expect(states[0].p.dataSync()).not.toEqual(Float32Array.from(init.p));
    });
  }
});
