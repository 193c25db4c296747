import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { activeProfile, detectProfile, useProfile } from '../../backend/profile.ts';
import { makeConfig } from '../../model/config.ts';
import { disposeParams, initParams } from '../../model/params.ts';
import { type LossAndGradients, type StepBatch, lossAndGradients } from './gradients.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, maxLen: 64, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });

// Two groups of different lengths; 40 and 33 tokens pad their chunks to 64, the others to 32.
const lengths = [5, 40, 3, 9, 20, 7, 33];
const batch: StepBatch = {
  candidates: lengths.map((n, i) => [63, ...Array.from({ length: n - 1 }, (_, t) => 1 + ((i * 7 + t * 13) % 60))]),
  labels: [1, 0, 0, 1, 0, 1, 0],
  groupOf: [0, 0, 0, 0, 1, 1, 1],
};

/** The largest |a − b| over `scale` (left out: a's largest entry). */
async function relativeError(a: tf.Tensor, b: tf.Tensor, scale?: number): Promise<number> {
  const [x, y] = (await Promise.all([a.data(), b.data()])) as Float32Array[];
  let diff = 0;
  let largest = 0;
  for (let i = 0; i < x.length; i++) {
    diff = Math.max(diff, Math.abs(x[i] - y[i]));
    largest = Math.max(largest, Math.abs(x[i]));
  }
  return diff / (scale ?? largest);
}

const dispose = (r: LossAndGradients) => tf.dispose([r.loss, ...r.grads.values()]);

afterEach(() => useProfile(null));

describe('dropout masks on the host backends do not depend on how the step is split into passes', () => {
  for (const backend of ['cpu', 'wasm']) {
    it(`on ${backend}: one pass of 7 candidates, passes of 3 and passes of 2 give the same loss and gradients`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      // The packed layout keys masks by candidate; cpu runs the padded reference unless told otherwise.
      useProfile({ ...detectProfile(backend), packedForward: true });
      const params = initParams(cfg, 2);
      const run = (microBatch: number, dropoutSeed = 9) => lossAndGradients(cfg, params, batch, { microBatch, dropoutSeed, profile: activeProfile() });
      const one = run(7);
      // Same masks, so only float32 rounding differs: chunks change the order in which products and the
      // chunks' gradients are summed (a few ulps of each sum), far below 1e-5 of the step's largest
      // gradient entry; another mask moves the loss by ~3e-3 relative here, the gradients more.
      // Gradients are held to the step's scale, not each tensor's: head.3.bias's true gradient is 0 (a
      // group's BT gradients sum to 0), and its float noise would read as any relative error.
      const scale = Math.max(
        ...(await Promise.all([...one.grads.values()].map(async (g) => ((await g.data()) as Float32Array).reduce((m, v) => Math.max(m, Math.abs(v)), 0)))),
      );
      for (const microBatch of [3, 2]) {
        const split = run(microBatch);
        expect(await relativeError(one.loss, split.loss), `loss, micro-batch ${microBatch}`).toBeLessThan(1e-5);
        for (const [name, g] of one.grads)
          expect(await relativeError(g, split.grads.get(name)!, scale), `${name}, micro-batch ${microBatch}`).toBeLessThan(1e-5);
        dispose(split);
      }
      // Dropout really is on: another step seed, another loss.
      const other = run(7, 10);
      expect(await relativeError(one.loss, other.loss)).toBeGreaterThan(1e-4);
      dispose(one);
      dispose(other);
      disposeParams(params);
    });
  }
});
