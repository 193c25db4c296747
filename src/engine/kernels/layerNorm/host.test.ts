import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import './host.ts';
import { simdLayerNorm } from './wasm.ts';
import { fusedLayerNorm } from './layerNorm.ts';

it('the host LayerNorm runs its SIMD forward on wasm only', async () => {
  for (const backend of ['cpu', 'wasm']) {
    expect(await tf.setBackend(backend)).toBe(true);
    expect(simdLayerNorm(tf.backend()) !== null).toBe(backend === 'wasm');
  }
});

it('on wasm, the SIMD forward gives the TypeScript forward’s values (cpu), rows far from 0 and rows of one value included', async () => {
  const rng = createRng(4);
  // d 256 and 20 run the SIMD loops on wasm, d 6 the TypeScript loop there too.
  for (const [rows, d, offset] of [
    [37, 256, 0],
    [9, 20, 1000],
    [5, 6, 0],
  ]) {
    const values = Float32Array.from({ length: rows * d }, () => offset + 3 * (rng.next() - 0.5));
    // A row of one value: variance 0, the output is the bias.
    values.fill(offset + 0.25, 0, d);
    const w = Float32Array.from({ length: d }, () => rng.next() * 2 - 1);
    const b = Float32Array.from({ length: d }, () => rng.next() - 0.5);
    const run = async (backend: string) => {
      expect(await tf.setBackend(backend)).toBe(true);
      return tf.tidy(() => fusedLayerNorm(tf.tensor2d(values, [rows, d]), tf.tensor1d(w), tf.tensor1d(b), 1e-5).dataSync());
    };
    const [simd, reference] = [await run('wasm'), await run('cpu')];
    let worst = 0;
    for (let i = 0; i < reference.length; i++) worst = Math.max(worst, Math.abs(simd[i] - reference[i]) / Math.max(1, Math.abs(reference[i])));
    // Float64 throughout, summed in another order: at most the last bit of a float32.
    expect(worst, `[${rows}, ${d}]`).toBeLessThan(2.5e-7);
    expect(Array.from(simd.slice(0, d))).toEqual(Array.from(reference.slice(0, d)));
  }
});
