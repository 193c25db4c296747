import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BackendProfile, activeProfile, detectProfile } from '../backend/profile.ts';
import { createRng } from '../shared/rng.ts';
import { padBatch } from './batch.ts';
import { makeConfig } from './config.ts';
import { dropoutForChunk } from './dropout.ts';
import { disposeParams, initParams } from './params.ts';
import { energies } from './transebm.ts';

const cfg = makeConfig({ vocabSize: 40, dModel: 16, nHeads: 2, nLayers: 2, maxLen: 32, dropout: 0.3, clsId: 1, sepId: 2, padId: 0 });
const rng = createRng(4);
const candidates = Array.from({ length: 6 }, (_, b) => Int32Array.from({ length: 3 + 4 * b }, (_, t) => (t === 0 ? 1 : 3 + rng.int(36))));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Energies of `candidates[from..]` in one forward, dropout seeded by step seed 5 as a step's chunk from `from`. */
function forward(profile: BackendProfile, packed: boolean, from = 0, seed = 5): Float32Array {
  const params = initParams(cfg, 3);
  const inputs = padBatch(candidates.slice(from), cfg.padId);
  const out = tf.tidy(
    () =>
      energies(cfg, params, inputs, {
        packed,
        dropout: dropoutForChunk(cfg.dropout, seed, from, profile),
        profile: activeProfile(),
      }).dataSync() as Float32Array,
  );
  tf.dispose([inputs.ids, inputs.lengths]);
  disposeParams(params);
  return out;
}

const largest = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

describe('SeededDropout', () => {
  it('draws one mask per element on every path: the plain composition, the host kernel, the packed forward, any chunk', () => {
    const host = detectProfile('cpu');
    const plain: BackendProfile = { ...host, hostKernels: false };
    const reference = forward(plain, false);
    // The host kernel computes the composition's products: the same bits.
    expect(Array.from(forward(host, false))).toEqual(Array.from(reference));
    // The packed forward sums in another order, with the same masks.
    expect(largest(forward(host, true), reference)).toBeLessThan(1e-6);
    // A chunk from the step's 4th candidate draws that candidate's masks, on either layout.
    for (const packed of [false, true]) expect(largest(forward(host, packed, 3), reference.subarray(3))).toBeLessThan(1e-6);
    // The masks do act: another step seed moves the energies by far more.
    expect(largest(forward(host, false, 0, 6), reference)).toBeGreaterThan(1e-3);
  });
});
