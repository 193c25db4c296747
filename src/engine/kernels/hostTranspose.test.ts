import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../data/rng.ts';
import { swapLast } from './hostTranspose.ts';
import { simdTranspose } from './wasm/transpose.ts';

const SHAPES = [[1, 1], [4, 4], [5, 7], [8, 12], [13, 4], [4, 13], [64, 257], [257, 64], [3, 9, 6], [2, 8, 8], [2, 5, 11]];

describe.each(['cpu', 'wasm'])('swapLast on %s', (backend) => {
  it('equals tf.transpose of the last two axes, value for value, blocks and edges; its gradient is itself', async () => {
    expect(await tf.setBackend(backend)).toBe(true);
    expect(simdTranspose(tf.backend()) !== null).toBe(backend === 'wasm');
    const rng = createRng(4);
    for (const shape of SHAPES) {
      const x = tf.tensor(Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.next() - 0.5), shape);
      const perm = shape.length === 2 ? [1, 0] : [0, 2, 1];
      const [mine, want] = [swapLast(x), tf.transpose(x, perm)];
      expect(mine.shape, `${shape}`).toEqual(want.shape);
      expect(Array.from(mine.dataSync()), `${shape}`).toEqual(Array.from(want.dataSync()));
      const w = tf.randomNormal(want.shape, 0, 1, 'float32', 5);
      const dx = tf.grad((v: tf.Tensor) => tf.sum(tf.mul(swapLast(v), w)))(x);
      expect(Array.from(dx.dataSync()), `dx ${shape}`).toEqual(Array.from(tf.transpose(w, perm).dataSync()));
      tf.dispose([x, mine, want, w, dx]);
    }
  });
});
