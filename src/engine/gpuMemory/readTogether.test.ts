import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { readTogether } from './readTogether.ts';

// The CPU backend's path (a copy and a read each); WebGPU's one-map path is checked in the browser and GPU
// kit parity, where the fused AdamW's weights and moments are read back through it (kernels/adamw/flatParity.ts).
describe('readTogether', () => {
  it('reads each tensor as it was when called, even when it changes before the read resolves', async () => {
    await tf.setBackend('cpu');
    const a = tf.variable(tf.tensor2d([1, 2, 3, 4], [2, 2]));
    const b = tf.variable(tf.tensor1d([5, 6, 7]));
    const reading = readTogether([a, b]);
    a.assign(tf.zerosLike(a));
    b.assign(tf.onesLike(b));
    const [ra, rb] = await reading;
    expect([...ra]).toEqual([1, 2, 3, 4]);
    expect([...rb]).toEqual([5, 6, 7]);
    tf.dispose([a, b]);
  });

  it('leaves no tensor behind and refuses what is not float32', async () => {
    await tf.setBackend('cpu');
    const x = tf.tensor1d([1, 2]);
    const before = tf.memory().numTensors;
    await readTogether([x, x]);
    expect(tf.memory().numTensors).toBe(before);
    const ids = tf.tensor1d([1, 2], 'int32');
    await expect(readTogether([x, ids])).rejects.toThrow(/float32 tensors, not int32/);
    tf.dispose([x, ids]);
  });
});
