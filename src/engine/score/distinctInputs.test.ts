/**
 * Identical inputs get identical energies, wherever the batching puts them (issue 31, point 6): an input
 * padded beside a longer one and the same input in a batch of its own length score exactly alike.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { createRng } from '../shared/rng.ts';
import { activationBytesPerCandidate } from '../model/autoMicroBatch.ts';
import { distinctInputs, scoreDistinct } from './distinctInputs.ts';
import { activeProfile } from '../backend/profile.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('distinct inputs', () => {
  it('names each token sequence once, in order of first appearance', () => {
    const a = Uint16Array.of(1, 2, 3);
    const { unique, of } = distinctInputs([a, [1, 2], Uint16Array.of(1, 2, 3), [1, 2, 3, 0], [1, 2]]);
    expect(unique.map((u) => Array.from(u))).toEqual([
      [1, 2, 3],
      [1, 2],
      [1, 2, 3, 0],
    ]);
    expect(Array.from(of)).toEqual([0, 1, 0, 2, 1]);
    // Ids above 2^16 stay apart (a vocabulary may be that large).
    expect(distinctInputs([[65536 + 5], [5]]).unique.length).toBe(2);
  });

  it('an input padded in one batch and alone in another scores exactly the same', async () => {
    const cfg = makeConfig({ vocabSize: 200, dModel: 64, nHeads: 2, nLayers: 2, ffnDim: 256, dropout: 0, maxLen: 64, clsId: 0, sepId: 1, padId: 2 });
    const params = initParams(cfg, 3);
    const rng = createRng(1);
    const ids = (n: number) => [0, ...Array.from({ length: n }, () => 3 + rng.int(197))];
    // Two candidates a batch, longest first: x once padded to y's 64 tokens, once in a batch of its own length.
    const budgetBytes = 2 * activationBytesPerCandidate(cfg, 64);
    let differ = 0;
    for (let t = 0; t < 12; t++) {
      const x = ids(5 + rng.int(30));
      const e = await scoreDistinct(cfg, params, [ids(63), x, [...x]], { budgetBytes, profile: activeProfile() });
      if (e[1] !== e[2]) differ++;
    }
    disposeParams(params);
    expect(differ).toBe(0);
  });

  it('takes inputs with the same ids in another order as one input when the model has no positional encoding', () => {
    const inputs = [
      [0, 5, 6, 7],
      [0, 7, 5, 6],
      [5, 0, 6, 7],
      [0, 5, 6, 6],
      [0, 6, 7, 5],
    ];
    expect(Array.from(distinctInputs(inputs, true).of)).toEqual([0, 0, 1, 2, 0]);
    expect(Array.from(distinctInputs(inputs).of)).toEqual([0, 1, 2, 3, 4]);
  });
});
