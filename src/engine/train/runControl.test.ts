import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitGroups } from '../data/split.ts';
import { EMBEDDING } from '../model/adamw.ts';
import { makeConfig } from '../model/config.ts';
import { type Params, disposeParams, initParams, paramsToArrays } from '../model/params.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import { type RunEvaluation, type RunListener, runTraining } from './loop.ts';
import { RunControl, type WeightsSnapshot } from './runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from './settings.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 1, maxLen: 32, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 20, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });
// No warmup: the first step already moves the weights.
const settings: TrainSettings = { ...DEFAULT_TRAIN_SETTINGS, epochs: 2, lr: 3e-3, seed: 5, warmupRatio: 0 };

beforeAll(async () => {
  await tf.setBackend('cpu');
});

function listener(over: Partial<RunListener> = {}): RunListener {
  return { state: () => undefined, points: () => undefined, progress: () => undefined, evaluation: () => undefined, evalProgress: () => undefined, ...over };
}

const run = (params: Params, l: RunListener, control: RunControl, over: Partial<TrainSettings> = {}) =>
  runTraining({ cfg, params, view: data.view, answers: data.answers, split, settings: { ...settings, ...over }, profile: activeProfile() }, l, control);

async function expectSameWeights(a: Params, b: Params): Promise<void> {
  const [x, y] = await Promise.all([paramsToArrays(a, activeProfile()), paramsToArrays(b, activeProfile())]);
  for (const [name, v] of x) expect(y.get(name), name).toEqual(v);
}

describe('RunControl snapshots', () => {
  it('answers a request made during a step with the weights after that step, the lazy embedding included', async () => {
    // Run A asks for a snapshot as soon as step 1 is done; run B stops there. Both start from the same weights.
    const initial = await paramsToArrays(initParams(cfg, 4), activeProfile());
    const paramsA = initParams(cfg, 4);
    const controlA = new RunControl();
    let requested: Promise<WeightsSnapshot> | null = null;
    await run(paramsA, listener({ state: (s) => void (s === 'training' && !requested && (requested = controlA.snapshot())) }), controlA, { epochs: 1 });
    const snap = await requested!;
    expect(snap.step).toBe(1);

    const paramsB = initParams(cfg, 4);
    const controlB = new RunControl();
    const end = await run(paramsB, listener({ state: (s) => void (s === 'training' && controlB.stop()) }), controlB, { epochs: 1 });
    expect(end.steps).toBe(1);
    await expectSameWeights(snap.params, paramsB);
    // The embedding moved (decay alone changes every row): it was synced, not read stale.
    const emb = (await paramsToArrays(snap.params, activeProfile())).get(EMBEDDING)!;
    expect(emb).not.toEqual(initial.get(EMBEDDING));
    for (const p of [snap.params, paramsA, paramsB]) disposeParams(p);
  });

  it('answers at once while paused, and with the final weights once the run is over', async () => {
    const params = initParams(cfg, 4);
    const control = new RunControl();
    let whilePaused: WeightsSnapshot | null = null;
    const l = listener({
      state: (s) => {
        if (s === 'training' && !whilePaused) control.pause();
        if (s === 'paused') {
          void control.snapshot().then((snap) => {
            whilePaused = snap;
            control.resume();
          });
        }
      },
    });
    const end = await run(params, l, control, { epochs: 1 });
    expect(end.reason).toBe('finished');
    expect(whilePaused!.step).toBe(1);
    const after = await control.snapshot();
    expect(after.step).toBe(end.steps);
    await expectSameWeights(after.params, params);
    for (const p of [whilePaused!.params, after.params, params]) disposeParams(p);
  });
});

describe('best checkpoint', () => {
  it('starts at epoch 1: the untrained model never becomes the best, even when nothing beats it', async () => {
    // lr 0: every validation scores the same, so only the rule decides.
    const params = initParams(cfg, 4);
    const evals: RunEvaluation[] = [];
    const end = await run(params, listener({ evaluation: (e) => evals.push(e) }), new RunControl(), { lr: 0 });
    expect(evals.map((e) => [e.epoch, e.isBest])).toEqual([
      [0, false],
      [1, true],
      [2, false],
    ]);
    expect(end.bestValBestOfN).toBe(evals[1].evaluation.summary.bestOfN);
    disposeParams(params);
  });
});
