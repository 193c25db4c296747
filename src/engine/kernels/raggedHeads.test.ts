import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../data/rng.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { energies } from '../model/transebm.ts';
import { maxAbsDiff } from '../testing/allclose.ts';
import { padBatch } from '../train/batch.ts';
import { mergeHeads, splitHeads } from './raggedHeads.ts';

const rng = createRng(9);

describe('ragged heads: split and merge are each other’s inverse and gradient', () => {
  for (const backend of ['cpu', 'wasm']) {
    it(`on ${backend}: blocks hold the right entries, merge restores them, gradients route back`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const lengths = [3, 1, 5];
      const layout = { lengths, heads: 2, dh: 3, col0: 4 };
      const width = 12;
      const n = 9;
      const x = tf.tensor2d(Float32Array.from({ length: n * width }, () => rng.next()), [n, width]);
      const parts = splitHeads(x, layout);
      expect(parts.map((p) => p.shape)).toEqual([[3, 3], [3, 3], [1, 3], [1, 3], [5, 3], [5, 3]]);
      // Candidate 2 (rows 4..8), head 1: columns 4 + 3 … 4 + 6.
      expect(Array.from(parts[5].dataSync())).toEqual(Array.from(tf.slice(x, [4, 7], [5, 3]).dataSync()));
      const merged = mergeHeads(parts, layout, width);
      const cols = tf.slice(x, [0, 4], [n, 6]);
      expect(Array.from(tf.slice(merged, [0, 4], [n, 6]).dataSync())).toEqual(Array.from(cols.dataSync()));
      expect(tf.sum(tf.abs(tf.slice(merged, [0, 0], [n, 4]))).dataSync()[0]).toBe(0);
      // d/dx Σ w·merge(split(x)) = w on the split columns, 0 elsewhere.
      const w = tf.tensor2d(Float32Array.from({ length: n * width }, () => rng.next()), [n, width]);
      const g = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(mergeHeads(splitHeads(t, layout), layout, width), w)))(x);
      const mask = tf.tensor2d(Float32Array.from({ length: n * width }, (_, i) => (i % width >= 4 && i % width < 10 ? 1 : 0)), [n, width]);
      expect(maxAbsDiff(g.dataSync(), tf.mul(w, mask).dataSync()).max).toBe(0);
    });

    it(`on ${backend}: transposed and scaled blocks hold scale·entries as [dh, length], and route scale·dy back`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const layout = { lengths: [2, 4], heads: 2, dh: 3, col0: 1, transpose: true, scale: 0.5 };
      const width = 8;
      const x = tf.tensor2d(Float32Array.from({ length: 6 * width }, () => rng.next()), [6, width]);
      const parts = splitHeads(x, layout);
      expect(parts.map((p) => p.shape)).toEqual([[3, 2], [3, 2], [3, 4], [3, 4]]);
      // Candidate 1 (rows 2..5), head 1: columns 1 + 3 … 1 + 6, transposed and halved.
      const want = tf.mul(tf.transpose(tf.slice(x, [2, 4], [4, 3])), 0.5);
      expect(maxAbsDiff(parts[3].dataSync(), want.dataSync()).max).toBeLessThan(1e-7);
      // The gradient of Σ w_i·block_i is 0.5·w_i at each block entry's place in x.
      const ws = parts.map((p) => tf.randomUniform(p.shape, -1, 1, 'float32', 5));
      const g = tf.grad((t: tf.Tensor) => tf.addN(splitHeads(t, layout).map((p, i) => tf.sum(tf.mul(p, ws[i])))))(x);
      const expected = tf.mul(mergeHeads(ws, { ...layout, scale: 1 }, width), 0.5);
      expect(maxAbsDiff(g.dataSync(), expected.dataSync()).max).toBeLessThan(1e-7);
      // Merge of the unscaled blocks puts w back transposed: block (1, 1) entry (j, t) at row 2 + t, column 4 + j.
      expect(maxAbsDiff(tf.slice(expected, [2, 4], [4, 3]).dataSync(), tf.mul(tf.transpose(ws[3]), 0.5).dataSync()).max).toBeLessThan(1e-7);
    });
  }
});

describe('the packed forward (no padding) equals the padded composition', () => {
  it('energies and every gradient within 1e-6 on cpu, learned positions included', async () => {
    expect(await tf.setBackend('cpu')).toBe(true);
    for (const positional of ['none', 'learned'] as const) {
      const cfg = makeConfig({ vocabSize: 120, dModel: 16, nHeads: 4, nLayers: 2, maxLen: 40, dropout: 0, clsId: 119, sepId: 119, padId: 119, positional });
      const params = initParams(cfg, 2);
      const cands = [7, 1, 13, 30].map((len) => [119, ...Array.from({ length: len }, () => 1 + rng.int(117))]);
      const w = tf.tensor1d([0.3, -1.2, 0.7, 2.0]);
      const run = (packed: boolean) => {
        const inputs = padBatch(cands, cfg.padId, 40);
        const { value, grads } = tf.variableGrads(() => tf.sum(tf.mul(energies(cfg, params, inputs, { packed }), w)) as tf.Scalar);
        const out = { e: tf.tidy(() => energies(cfg, params, inputs, { packed }).dataSync()), value: value.dataSync()[0], grads: new Map(Object.entries(grads).map(([k, t]) => [k, t.dataSync()])) };
        tf.dispose([value, ...Object.values(grads), inputs.ids, inputs.lengths]);
        return out;
      };
      const [packed, padded] = [run(true), run(false)];
      expect(maxAbsDiff(packed.e, padded.e).max, `energies (${positional})`).toBeLessThan(1e-6);
      for (const [name, g] of padded.grads) expect(maxAbsDiff(packed.grads.get(name)!, g).max, `${name} (${positional})`).toBeLessThan(1e-6);
      disposeParams(params);
    }
  });
});
