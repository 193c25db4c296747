import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { makeConfig } from '../../model/config.ts';
import { disposeParams, initParams } from '../../model/params.ts';
import { energies } from '../../model/transebm.ts';
import { maxAbsDiff } from '../../testing/allclose.ts';
import { padBatch } from '../../model/batch.ts';
import { mergeHeads, splitHeads } from './host.ts';
import { activeProfile } from '../../backend/profile.ts';

const rng = createRng(9);

describe('ragged heads: split and merge are each other’s inverse and gradient', () => {
  for (const backend of ['cpu', 'wasm']) {
    it(`on ${backend}: blocks hold the right entries, merge restores them, gradients route back`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const layout = { lengths: [3, 1, 5], heads: 2, dh: 3 };
      const width = 12;
      const n = 9;
      const x = tf.tensor2d(
        Float32Array.from({ length: n * width }, () => rng.next()),
        [n, width],
      );
      const [parts] = splitHeads(x, layout, [{ col0: 3 }]);
      expect(parts.map((p) => p.shape)).toEqual([
        [3, 3],
        [3, 3],
        [1, 3],
        [1, 3],
        [5, 3],
        [5, 3],
      ]);
      // Candidate 2 (rows 4..8), head 1: columns 3 + 3 … 3 + 6.
      expect(Array.from(parts[5].dataSync())).toEqual(Array.from(tf.slice(x, [4, 6], [5, 3]).dataSync()));
      expect(Array.from(mergeHeads(parts, layout).dataSync())).toEqual(Array.from(tf.slice(x, [0, 3], [n, 6]).dataSync()));
      // d/dx Σ w·merge(split(x)) = w on the split columns (3 … 8), 0 elsewhere.
      const w = tf.tensor2d(
        Float32Array.from({ length: n * 6 }, () => rng.next()),
        [n, 6],
      );
      const g = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(mergeHeads(splitHeads(t, layout, [{ col0: 3 }])[0], layout), w)))(x);
      expect(Array.from(g.dataSync())).toEqual(
        Array.from(
          tf
            .pad(w, [
              [0, 0],
              [3, 3],
            ])
            .dataSync(),
        ),
      );
    });

    it(`on ${backend}: several parts at once, gradients summed where parts meet`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      // dh 4: the SIMD copy on wasm.
      const layout = { lengths: [2, 5], heads: 2, dh: 4 };
      const width = 16;
      const x = tf.tensor2d(
        Float32Array.from({ length: 7 * width }, () => rng.next()),
        [7, width],
      );
      // Overlapping parts: columns 0 … 7 and 4 … 11.
      const [first, second] = splitHeads(x, layout, [{ col0: 0 }, { col0: 4 }]);
      expect(second.map((p) => p.shape)).toEqual([
        [2, 4],
        [2, 4],
        [5, 4],
        [5, 4],
      ]);
      // Candidate 1 (rows 2..6), head 1 of the second part: columns 4 + 4 … 4 + 8.
      expect(Array.from(second[3].dataSync())).toEqual(Array.from(tf.slice(x, [2, 8], [5, 4]).dataSync()));
      expect(Array.from(first[1].dataSync())).toEqual(Array.from(tf.slice(x, [0, 4], [2, 4]).dataSync()));
      // The gradient of Σ w·block over both parts: each block's weights at its entries' places, added where parts share columns.
      const w1 = first.map((p) => tf.randomUniform(p.shape, -1, 1, 'float32', 5));
      const w2 = second.map((p) => tf.randomUniform(p.shape, -1, 1, 'float32', 6));
      const g = tf.grad((t: tf.Tensor) => {
        const [a, b] = splitHeads(t, layout, [{ col0: 0 }, { col0: 4 }]);
        return tf.addN([...a.map((p, i) => tf.sum(tf.mul(p, w1[i]))), ...b.map((p, i) => tf.sum(tf.mul(p, w2[i])))]);
      })(x);
      const want = tf.add(
        tf.pad(mergeHeads(w1, layout), [
          [0, 0],
          [0, 8],
        ]),
        tf.pad(mergeHeads(w2, layout), [
          [0, 0],
          [4, 4],
        ]),
      );
      expect(maxAbsDiff(g.dataSync(), want.dataSync()).max).toBeLessThan(1e-7);
    });
  }
});

describe('the packed forward (no padding) equals the padded composition', () => {
  it('energies and every gradient within 1e-6 on cpu, learned positions and a single candidate included', async () => {
    expect(await tf.setBackend('cpu')).toBe(true);
    for (const [positional, lengths] of [
      ['none', [7, 1, 13, 30]],
      ['learned', [7, 1, 13, 30]],
      ['none', [13]],
    ] as const) {
      const cfg = makeConfig({ vocabSize: 120, dModel: 16, nHeads: 4, nLayers: 2, maxLen: 40, dropout: 0, clsId: 119, sepId: 119, padId: 119, positional });
      const params = initParams(cfg, 2);
      const cands = lengths.map((len) => [119, ...Array.from({ length: len }, () => 1 + rng.int(117))]);
      const w = tf.tensor1d([0.3, -1.2, 0.7, 2.0].slice(0, cands.length));
      const run = (packed: boolean) => {
        const inputs = padBatch(cands, cfg.padId, 40);
        const { value, grads } = tf.variableGrads(() => tf.sum(tf.mul(energies(cfg, params, inputs, { packed, profile: activeProfile() }), w)) as tf.Scalar);
        const out = {
          e: tf.tidy(() => energies(cfg, params, inputs, { packed, profile: activeProfile() }).dataSync()),
          value: value.dataSync()[0],
          grads: new Map(Object.entries(grads).map(([k, t]) => [k, t.dataSync()])),
        };
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
