import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitGroups } from '../data/split.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import { NON_FINITE_PAUSE, type RunProgress, runTraining } from './loop.ts';
import { RunControl } from './runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from './settings.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 1, maxLen: 64, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 20, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });
const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  model: { ...DEFAULT_TRAIN_SETTINGS.model, dModel: 16, nHeads: 2, nLayers: 1, ffnDim: 64, maxLen: 64, dropout: 0.1 },
  epochs: 2,
  lr: 3e-3,
  checkpointEverySteps: 0,
};

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('non-finite steps', () => {
  for (const lazy of [true, false]) {
    it(`are skipped (no weight moves), counted, and ${NON_FINITE_PAUSE} in a row pause the run with an explanation (lazy embedding ${lazy ? 'on' : 'off'})`, async () => {
      const init = await paramsToArrays(initParams(cfg, 4), activeProfile());
      // The head's last bias is NaN: every energy, loss and gradient norm is NaN.
      init.set('head.3.bias', new Float32Array([Number.NaN]));
      const params = paramsFromArrays(cfg, init);
      const control = new RunControl();
      const states: Array<[string, string | undefined]> = [];
      let progress: RunProgress | null = null;
      const result = await runTraining(
        { cfg, params, view: data.view, answers: data.answers, split, settings, lazyEmbedding: lazy, profile: activeProfile() },
        {
          state: (s, _step, _epoch, message) => {
            states.push([s, message]);
            if (s === 'paused') control.stop();
          },
          points: () => undefined,
          progress: (p) => (progress = p),
          evaluation: () => undefined,
          evalProgress: () => undefined,
        },
        control,
      );
      expect(result.reason).toBe('stopped');
      const paused = states.find(([s]) => s === 'paused');
      expect(paused?.[1]).toMatch(/3 steps in a row .* non-finite loss.*skipped/);
      // The pause comes at the first step boundary after the third non-finite step is read back.
      expect(result.steps).toBeGreaterThanOrEqual(NON_FINITE_PAUSE);
      expect(result.steps).toBeLessThanOrEqual(NON_FINITE_PAUSE + 1);
      expect(progress!.skippedSteps).toBe(result.steps);
      const after = await paramsToArrays(params, activeProfile());
      for (const [name, before] of init) {
        if (name === 'head.3.bias') continue;
        expect(Array.from(after.get(name)!), name).toEqual(Array.from(before));
      }
      disposeParams(params);
    });
  }
});
