import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { energies } from '../model/transebm.ts';
import { activationBytesPerCandidate } from './autoMicroBatch.ts';
import { padBatch } from './batch.ts';
import { scoreCandidates } from './scoring.ts';

const cfg = makeConfig({ vocabSize: 50, dModel: 8, nHeads: 2, nLayers: 2, maxLen: 40, dropout: 0.2, clsId: 49, sepId: 49, padId: 49 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('scoreCandidates', () => {
  it('returns eval-mode energies in input order, whatever the batching', async () => {
    const params = initParams(cfg, 3);
    const cands = Array.from({ length: 11 }, (_, i) => [49, ...Array.from({ length: 3 + ((i * 7) % 30) }, (_, t) => 1 + ((t * 5 + i) % 47))]);
    const all = tf.tidy(() => energies(cfg, params, padBatch(cands, cfg.padId)));
    const want = await all.data();
    all.dispose();
    // A budget of about two long candidates forces several batches of different sizes.
    const small = await scoreCandidates(cfg, params, cands, 2 * activationBytesPerCandidate(cfg, 33));
    const large = await scoreCandidates(cfg, params, cands);
    for (let i = 0; i < cands.length; i++) {
      expect(small[i]).toBeCloseTo(want[i], 6);
      expect(large[i]).toBeCloseTo(want[i], 6);
    }
    disposeParams(params);
  });
});
