import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig } from './config.ts';
import { disposeParams, initParams } from './params.ts';
import { energies } from './transebm.ts';
import { maxAbsDiff } from '../testing/allclose.ts';
import { padBatch } from './batch.ts';
import { LENGTH_BUCKET, bucketLength } from './shapeBuckets.ts';
import { activeProfile } from '../backend/profile.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('length buckets', () => {
  it('pad to the next multiple of the bucket, capped at maxLen', () => {
    expect(LENGTH_BUCKET).toBe(32);
    expect(bucketLength(1, 256)).toBe(32);
    expect(bucketLength(32, 256)).toBe(32);
    expect(bucketLength(33, 256)).toBe(64);
    expect(bucketLength(250, 256)).toBe(256);
    expect(bucketLength(70, 80)).toBe(80);
    expect(() => padBatch([[1, 2, 3]], 0, 2)).toThrow(/shorter/);
  });

  it('do not change the energies: padded keys are masked', () => {
    const cfg = makeConfig({ vocabSize: 100, dModel: 16, nHeads: 2, nLayers: 2, maxLen: 96, dropout: 0, clsId: 99, sepId: 99, padId: 99 });
    const params = initParams(cfg, 4);
    const cands = [
      [99, 5, 6, 7],
      [99, 8, 9, 10, 11, 12, 13],
      [99, 14],
    ];
    const [tight, bucketed] = [undefined, 64].map((len) =>
      tf.tidy(() => energies(cfg, params, padBatch(cands, cfg.padId, len), { profile: activeProfile() }).dataSync()),
    );
    expect(maxAbsDiff(tight, bucketed).max).toBeLessThan(1e-6);
    disposeParams(params);
  });
});
