import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitGroups } from '../data/split.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { selectionReport } from '../metrics/selection.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import { evaluateModel, trainingSplitOf } from './evaluation.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 1, maxLen: 64, dropout: 0, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 30, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('evaluateModel: the selection report', () => {
  it('fits the vote temperature on the training groups given, reports on the evaluated ones, and progress counts only those', async () => {
    const params = initParams(cfg, 4);
    const progress: Array<[number, number]> = [];
    const e = await evaluateModel(cfg, params, data.view, data.answers, split.val, 9, { onProgress: (d, t) => progress.push([d, t]) }, trainingSplitOf({ ...data, split }));
    const valCandidates = 4 * split.val.length;
    expect(progress.at(-1)).toEqual([valCandidates, valCandidates]);
    expect(e.selection.groups).toBe(split.val.length);
    // Every synthetic group has both labels, and answer 'right' is exactly the correct candidates: all training groups inform the fit.
    expect(e.selection.temperatureSource).toBe(`fitted on ${split.train.length} training groups`);
    expect(e.selection.temperature).toBeGreaterThan(0);
    // The summary's figures follow the same tie rule.
    expect(e.selection.rules.majority.accuracy).toBe(e.summary.baselines.majorityVote);
    expect(e.selection.rules.bestOfN.accuracy).toBe(e.summary.bestOfN);
    expect(e.selection.bootstrap).toEqual({ resamples: 1000, seed: 9 });
    disposeParams(params);
  });

  it('without training data: T = 1 and the reason', async () => {
    const params = initParams(cfg, 4);
    const e = await evaluateModel(cfg, params, data.view, data.answers, split.val, 9, {}, trainingSplitOf(undefined));
    expect(e.selection.temperature).toBe(1);
    expect(e.selection.temperatureSource).toBe('not fitted (T = 1): no training data loaded');
    expect(e.selection).toEqual(selectionReport(e.groups, { seed: 9, fitOn: null, noFitReason: 'no training data loaded' }));
    disposeParams(params);
  });
});
