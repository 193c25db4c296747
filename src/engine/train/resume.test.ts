import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitGroups } from '../data/split.ts';
import { makeConfig } from '../model/config.ts';
import { type ParamArrays, disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { type ResumeSetup, crossBackendResumes, trainRun, worstDifference } from '../testing/resumeRuns.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import type { RunCheckpoint } from './checkpoint.ts';
import { lossAndGradients } from './step/gradients.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from './settings.ts';
import { stepBatch } from './step/stepBatch.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, maxLen: 64, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 20, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  model: { ...DEFAULT_TRAIN_SETTINGS.model, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 64, maxLen: 64, dropout: 0.1 },
  epochs: 3,
  lr: 3e-3,
  seed: 5,
  checkpointEverySteps: 4,
};

const setup: ResumeSetup = { cfg, view: data.view, answers: data.answers, split, settings };

/** Trains from `init` (or resumes from `from`) on `backend`: trainRun with the lazy embedding on or off. */
async function train(lazy: boolean, init: ParamArrays, from?: RunCheckpoint, stopAtStep?: number, backend = 'cpu') {
  expect(await tf.setBackend(backend)).toBe(true);
  return trainRun({ ...setup, lazyEmbedding: lazy }, init, from, stopAtStep);
}

describe('checkpoint and resume', () => {
  for (const lazy of [true, false]) {
    it(`a run stopped mid-epoch and resumed from its last checkpoint ends with the same weights (lazy embedding ${lazy ? 'on' : 'off'}, dropout on)`, async () => {
      const init = await paramsToArrays(initParams(cfg, 4), activeProfile());
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
    const init = await paramsToArrays(initParams(cfg, 6), activeProfile());
    const whole = await train(true, init);
    const atEpochEnd = whole.seen.checkpoints.find((c) => c.epoch === 2 && c.stepInEpoch === 0)!;
    expect(atEpochEnd.step).toBe(split.train.length);
    const resumed = await train(true, init, atEpochEnd);
    expect(worstDifference(resumed.final, whole.final)).toBeLessThanOrEqual(1e-7);
  });
});

/**
 * Across backends: CPU runs the padded reference forward, WASM the packed one (and WebGPU its fused dropout,
 * e2e/resumeBackends.spec.ts). Each keys every dropout mask by (step seed, site, candidate, position, column),
 * and every step zeroes the gradient entries no loss depends on (lossFreeGradients.ts), so they differ by
 * float rounding only, on every weight (the README quotes the weights' bound).
 */
const CROSS_BACKEND = { loss: 1e-6, gradient: 1e-6, weights: 1e-6 };

describe('across backends', () => {
  it('one step with the same weights, batch and dropout seed gives the same loss and gradients on cpu (padded) and wasm (packed)', async () => {
    const init = await paramsToArrays(initParams(cfg, 8), activeProfile());
    const batch = stepBatch(data.view, [split.train[0], split.train[1], split.train[2]], cfg.maxLen);
    const step = async (backend: string, seed: number, microBatch?: number) => {
      expect(await tf.setBackend(backend)).toBe(true);
      const params = paramsFromArrays(cfg, init);
      const { loss, grads } = lossAndGradients(cfg, params, batch, { dropoutSeed: seed, microBatch, profile: activeProfile() });
      const out = { loss: (await loss.data())[0], grads: new Map(await Promise.all([...grads].map(async ([name, g]) => [name, await g.data()] as const))) };
      tf.dispose([loss, ...grads.values()]);
      disposeParams(params);
      return out;
    };
    const cpu = await step('cpu', 21);
    // Chunks of 5 candidates: the keys are the step's candidates, whatever the chunk.
    for (const other of [await step('wasm', 21), await step('cpu', 21, 5), await step('wasm', 21, 5)]) {
      expect(Math.abs(other.loss - cpu.loss)).toBeLessThanOrEqual(CROSS_BACKEND.loss);
      let worst = 0;
      for (const [name, g] of cpu.grads) {
        const h = other.grads.get(name)!;
        for (let i = 0; i < g.length; i++) worst = Math.max(worst, Math.abs(g[i] - h[i]));
      }
      expect(worst).toBeLessThanOrEqual(CROSS_BACKEND.gradient);
    }
    // Dropout is on: another seed moves the loss by far more than the tolerance.
    expect(Math.abs((await step('cpu', 22)).loss - cpu.loss)).toBeGreaterThan(100 * CROSS_BACKEND.loss);
  });

  it("a run checkpointed on cpu and resumed on wasm, or the other way, ends with the uninterrupted run's weights to float rounding, every weight", async () => {
    const init = await paramsToArrays(initParams(cfg, 4), activeProfile());
    const stopAt = split.train.length + 4;
    const use = async (backend: string) => void expect(await tf.setBackend(backend)).toBe(true);
    const runs = await crossBackendResumes({ ...setup, lazyEmbedding: true }, init, stopAt, ['cpu', 'wasm'], use);
    expect(runs.map((r) => `${r.first}→${r.then} vs ${r.versus}`)).toEqual(['cpu→wasm vs cpu', 'cpu→wasm vs wasm', 'wasm→cpu vs cpu', 'wasm→cpu vs wasm']);
    for (const r of runs) {
      expect(r.checkpointStep).toBe(stopAt);
      expect(r.worst).toBeLessThanOrEqual(CROSS_BACKEND.weights);
      // The weights moved after the checkpoint: the comparison above can fail.
      expect(r.movedAfter).toBeGreaterThan(1e-3);
    }
  });
});
