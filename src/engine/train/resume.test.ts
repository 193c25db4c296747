import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitGroups } from '../data/split.ts';
import { makeConfig } from '../model/config.ts';
import { type ParamArrays, disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import type { RunCheckpoint } from './checkpoint.ts';
import { type RunListener, type TrainPoint, runTraining } from './loop.ts';
import { RunControl } from './runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from './settings.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 1, maxLen: 64, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 20, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  model: { ...DEFAULT_TRAIN_SETTINGS.model, dModel: 16, nHeads: 2, nLayers: 1, ffnDim: 64, maxLen: 64, dropout: 0.1 },
  epochs: 3,
  lr: 3e-3,
  seed: 5,
  checkpointEverySteps: 4,
};

interface Seen {
  points: TrainPoint[];
  checkpoints: RunCheckpoint[];
}

function listener(seen: Seen, onCheckpoint: (c: RunCheckpoint) => void = () => undefined): RunListener {
  return {
    state: () => undefined,
    points: (p) => seen.points.push(...p),
    progress: () => undefined,
    evaluation: () => undefined,
    evalProgress: () => undefined,
    checkpoint: (c) => {
      seen.checkpoints.push(c);
      onCheckpoint(c);
    },
  };
}

/** Trains from `init` (or resumes from `from`) and returns the final weights and what the listener saw. */
async function train(lazy: boolean, init: ParamArrays, from?: RunCheckpoint, stopAtStep?: number): Promise<{ final: ParamArrays; seen: Seen }> {
  const params = paramsFromArrays(cfg, from ? from.params : init);
  const control = new RunControl();
  const seen: Seen = { points: [], checkpoints: [] };
  const l = listener(seen, (c) => {
    if (stopAtStep !== undefined && c.step >= stopAtStep) control.stop();
  });
  await runTraining({ cfg, params, view: data.view, answers: data.answers, split, settings, resumeFrom: from, lazyEmbedding: lazy }, l, control);
  const final = await paramsToArrays(params);
  disposeParams(params);
  return { final, seen };
}

function worstDifference(a: ParamArrays, b: ParamArrays): number {
  let worst = 0;
  for (const [name, x] of a) {
    const y = b.get(name)!;
    for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i] - y[i]));
  }
  return worst;
}

describe('checkpoint and resume', () => {
  for (const lazy of [true, false]) {
    it(`a run stopped mid-epoch and resumed from its last checkpoint ends with the same weights (lazy embedding ${lazy ? 'on' : 'off'}, dropout on)`, async () => {
      const init = await paramsToArrays(initParams(cfg, 4));
      const whole = await train(lazy, init);
      const stepsPerEpoch = split.train.length;
      // Checkpoints every 4 steps within an epoch and after every epoch.
      expect(whole.seen.checkpoints.map((c) => c.step)).toContain(4);
      expect(whole.seen.checkpoints.at(-1)!.step).toBe(3 * stepsPerEpoch);
      expect(whole.seen.checkpoints.some((c) => c.optimizer.lazy !== null)).toBe(lazy);

      // Stop in the second epoch, past a mid-epoch checkpoint.
      const stopAt = stepsPerEpoch + 4;
      const cut = await train(lazy, init, undefined, stopAt);
      const last = cut.seen.checkpoints.at(-1)!;
      expect(last.step).toBe(stopAt);
      expect(last.epoch).toBe(2);
      expect(last.stepInEpoch).toBe(4);
      expect(cut.seen.points.at(-1)!.step).toBeGreaterThanOrEqual(stopAt - 1);

      const resumed = await train(lazy, init, last);
      expect(worstDifference(resumed.final, whole.final)).toBeLessThanOrEqual(1e-7);
      // The curve carries on: the resumed run's first points are the uninterrupted run's.
      const tail = whole.seen.points.filter((p) => p.step >= stopAt).slice(0, 3);
      expect(resumed.seen.points.slice(0, 3)).toEqual(tail);
      // And the weights really moved after the checkpoint (the comparison above can fail).
      expect(worstDifference(last.params, whole.final)).toBeGreaterThan(1e-4);
    });
  }

  it('resumes from an epoch-end checkpoint too', async () => {
    const init = await paramsToArrays(initParams(cfg, 6));
    const whole = await train(true, init);
    const atEpochEnd = whole.seen.checkpoints.find((c) => c.epoch === 2 && c.stepInEpoch === 0)!;
    expect(atEpochEnd.step).toBe(split.train.length);
    const resumed = await train(true, init, atEpochEnd);
    expect(worstDifference(resumed.final, whole.final)).toBeLessThanOrEqual(1e-7);
  });
});
