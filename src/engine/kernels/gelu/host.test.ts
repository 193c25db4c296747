import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { expect, it } from 'vitest';
import './host.ts';
import { composedGelu, fusedGelu } from './gelu.ts';
import { simdGelu } from './wasm.ts';

it('the host GELU runs its SIMD loops on wasm only', async () => {
  for (const backend of ['cpu', 'wasm']) {
    expect(await tf.setBackend(backend)).toBe(true);
    expect(simdGelu(tf.backend()) !== null).toBe(backend === 'wasm');
  }
});

it('on wasm, the SIMD loops and the TypeScript tail agree with the composition value by value, from −12 to 12', async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
  // 4·301 + 3 values: the last 3 go through the tail.
  const x = tf.tensor1d(Float32Array.from({ length: 1207 }, (_, i) => -12 + (24 * i) / 1206));
  const dy = tf.tensor1d(Float32Array.from({ length: 1207 }, (_, i) => Math.cos(i)));
  const [fused, composed] = [fusedGelu, composedGelu].map((f) => tf.tidy(() => [f(x), tf.grad((v: tf.Tensor) => f(v))(x, dy)].map((t) => t.dataSync())));
  for (const k of [0, 1]) {
    for (let i = 0; i < 1207; i++)
      expect(Math.abs(fused[k][i] - composed[k][i]), `${k ? 'dx' : 'y'} at x = ${x.dataSync()[i]}`).toBeLessThan(2e-6 * Math.max(1, Math.abs(composed[k][i])));
  }
  tf.dispose([x, dy]);
});
