import * as tf from '@tensorflow/tfjs';
import { activeProfile } from '../backend/profile.ts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { splitGroups } from '../data/split.ts';
import { AdamW } from '../model/adamw.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import { type RunEvaluation, type TrainPoint, runTraining } from './loop.ts';
import { RunControl } from './runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from './settings.ts';
import { trainStep } from './step/step.ts';
import { chunkRanges, padBatch } from '../model/batch.ts';
import { bucketLength } from '../model/shapeBuckets.ts';
import { lossAndGradients } from './step/gradients.ts';
import { dropoutForChunk } from '../model/dropout.ts';
import { btLoss, pairGroups } from '../model/loss.ts';
import { energies } from '../model/transebm.ts';
import { stepBatch } from './step/stepBatch.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, maxLen: 64, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 40, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

afterEach(() => {
  vi.restoreAllMocks();
});

const settings = (over: Partial<TrainSettings> = {}): TrainSettings => ({
  ...DEFAULT_TRAIN_SETTINGS,
  model: { ...DEFAULT_TRAIN_SETTINGS.model, dModel: 16, nHeads: 2, ffnDim: 64, maxLen: 64, dropout: 0.1 },
  epochs: 4,
  lr: 3e-3,
  seed: 5,
  ...over,
});

function listener(into: { points: TrainPoint[]; evals: RunEvaluation[]; scored?: Array<[number, number]> }, onPoints?: () => void) {
  return {
    evalProgress: (done: number, total: number) => into.scored?.push([done, total]),
    state: () => undefined,
    points: (p: TrainPoint[]) => {
      into.points.push(...p);
      onPoints?.();
    },
    progress: () => undefined,
    evaluation: (e: RunEvaluation) => into.evals.push(e),
  };
}

describe('training step hygiene', () => {
  it('keeps the tensor count flat over 20 steps (micro-batched, with dropout) and never calls dataSync', async () => {
    const params = initParams(cfg, 1);
    const opt = new AdamW(params, undefined, undefined, activeProfile());
    for (const m of ['dataSync', 'arraySync', 'bufferSync'] as const) {
      vi.spyOn(tf.Tensor.prototype, m).mockImplementation(() => {
        throw new Error(`${m}() called inside a training step`);
      });
    }
    const counts: number[] = [];
    for (let s = 0; s < 21; s++) {
      const batch = stepBatch(data.view, [split.train[s % split.train.length]], cfg.maxLen);
      const out = await trainStep(cfg, params, opt, batch, { lr: 1e-3, maxGradNorm: 1, microBatch: 3, dropoutSeed: s });
      const [loss] = await out.loss.data();
      expect(Number.isFinite(loss)).toBe(true);
      tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
      counts.push(tf.memory().numTensors);
    }
    expect(new Set(counts.slice(1)).size).toBe(1);
    expect(counts[20]).toBe(counts[0]);
    opt.dispose();
    disposeParams(params);
  });

  it('micro-batched step with dropout: both passes see the same masks, so it equals one tape over the same chunks', async () => {
    const params = initParams(cfg, 2);
    const batch = stepBatch(data.view, [split.train[0], split.train[1]], cfg.maxLen);
    const n = batch.candidates.length;
    // Reference: one tape over the chunks 0-2, 3-5, 6-7 with the chunks' dropout, so the BT loss is
    // differentiated exactly. The two-pass step matches it only if its no-grad pass drew the same masks.
    const pairs = pairGroups(batch.labels, batch.groupOf);
    const ref = tf.variableGrads(() => {
      const parts = chunkRanges(n, 3).map(([s, e]) =>
        energies(
          cfg,
          params,
          padBatch(batch.candidates.slice(s, e), cfg.padId, bucketLength(Math.max(...batch.candidates.slice(s, e).map((c) => c.length)), cfg.maxLen)),
          { dropout: dropoutForChunk(cfg.dropout, 9, s, activeProfile()), profile: activeProfile() },
        ),
      );
      return btLoss(tf.concat(parts) as tf.Tensor1D, pairs, activeProfile());
    });
    const micro = lossAndGradients(cfg, params, batch, { dropoutSeed: 9, microBatch: 3, profile: activeProfile() });
    expect(Math.abs((await micro.loss.data())[0] - (await ref.value.data())[0])).toBeLessThan(1e-6);
    let worst = 0;
    for (const [name, v] of params) {
      const x = await ref.grads[v.name].data();
      const y = await micro.grads.get(name)!.data();
      for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i] - y[i]));
    }
    expect(worst).toBeLessThan(1e-6);
    // And dropout really is on: another seed gives another loss.
    const other = lossAndGradients(cfg, params, batch, { dropoutSeed: 10, microBatch: 3, profile: activeProfile() });
    expect((await other.loss.data())[0]).not.toBe((await micro.loss.data())[0]);
    tf.dispose([ref.value, ...Object.values(ref.grads), micro.loss, ...micro.grads.values(), other.loss, ...other.grads.values()]);
    disposeParams(params);
  });
});

describe('runTraining', () => {
  it('learns a toy task: last epoch mean loss below the first, validation Best-of-N reaches the oracle', async () => {
    const params = initParams(cfg, 4);
    const before = tf.memory().numTensors;
    const seen = { points: [] as TrainPoint[], evals: [] as RunEvaluation[], scored: [] as Array<[number, number]> };
    const result = await runTraining(
      { cfg, params, view: data.view, answers: data.answers, split, settings: settings(), profile: activeProfile() },
      listener(seen),
      new RunControl(),
    );
    // Validation reports its progress, ending at every candidate of the validation groups.
    const valCandidates = Array.from(split.val).reduce((n, g) => n + data.view.groupStart[g + 1] - data.view.groupStart[g], 0);
    expect(seen.scored.at(-1)).toEqual([valCandidates, valCandidates]);
    expect(result.reason).toBe('finished');
    expect(result.steps).toBe(4 * split.train.length);
    expect(seen.points.map((p) => p.step)).toEqual(Array.from({ length: result.steps }, (_, i) => i));
    expect(seen.evals.map((e) => e.epoch)).toEqual([0, 1, 2, 3, 4]);
    expect(seen.evals[0].epochTrainLoss).toBeNull();
    const epochLoss = seen.evals.slice(1).map((e) => e.epochTrainLoss!);
    expect(epochLoss[3]).toBeLessThan(epochLoss[0]);
    const last = seen.evals[4].evaluation.summary;
    expect(last.bestOfN).toBe(1);
    expect(last.baselines.oracle).toBe(1);
    // The untrained model is never the best checkpoint; the first trained one always is.
    expect(seen.evals[0].isBest).toBe(false);
    expect(seen.evals[1].isBest).toBe(true);
    // Warmup: the very first step runs at lr 0, as the reference's LambdaLR does.
    expect(seen.points[0].lr).toBe(0);
    expect(tf.memory().numTensors).toBe(before);
    disposeParams(params);
  });

  it("validates with the lines' fields the settings name: the selector reads them and the map records them (issue 42, point 3)", async () => {
    const params = initParams(cfg, 4);
    const seen = { points: [] as TrainPoint[], evals: [] as RunEvaluation[] };
    // Enough held-out questions (24) to fit the selector, few steps (12).
    const many = syntheticView({ groups: 120, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
    const told = Float64Array.from(many.view.labels, (l, i) => l + (i % 5) / 10);
    await runTraining(
      {
        cfg,
        params,
        view: many.view,
        answers: many.answers,
        split: splitGroups(many.view, { seed: 1 }),
        settings: settings({ epochs: 1, groupsPerStep: 8 }),
        profile: activeProfile(),
        fields: { names: ['told'], values: [told] },
      },
      listener(seen),
      new RunControl(),
    );
    expect(seen.evals.map((e) => e.epoch)).toEqual([0, 1]);
    for (const e of seen.evals) {
      expect(e.evaluation.selection.probabilityMap.selectorFields).toEqual(['told']);
      expect(e.evaluation.selection.probabilityMap.selector).toHaveLength(7);
    }
    disposeParams(params);
  });

  it('stops within one step of the request', async () => {
    const params = initParams(cfg, 4);
    const control = new RunControl();
    const seen = { points: [] as TrainPoint[], evals: [] as RunEvaluation[] };
    const result = await runTraining(
      { cfg, params, view: data.view, answers: data.answers, split, settings: settings(), profile: activeProfile() },
      listener(seen, () => control.stop()),
      control,
    );
    expect(result.reason).toBe('stopped');
    // The first points arrive after step 1 is read; at most the step already in flight follows.
    expect(result.steps).toBeLessThanOrEqual(seen.points[0].step + 2);
    // Only the evaluation before training: none at an epoch end.
    expect(seen.evals.map((e) => e.epoch)).toEqual([0]);
    disposeParams(params);
  });

  it('pauses within one step and resumes where it left off', async () => {
    const params = initParams(cfg, 4);
    const control = new RunControl();
    const states: string[] = [];
    let stepAtPause = -1;
    const seen = { points: [] as TrainPoint[], evals: [] as RunEvaluation[] };
    const l = listener(seen, () => {
      if (stepAtPause < 0) {
        control.pause();
        stepAtPause = seen.points[seen.points.length - 1].step;
      }
    });
    l.state = ((s: string) => {
      states.push(s);
      if (s === 'paused') {
        expect(seen.points[seen.points.length - 1].step).toBeLessThanOrEqual(stepAtPause + 1);
        setTimeout(() => control.resume(), 10);
      }
    }) as typeof l.state;
    const result = await runTraining(
      { cfg, params, view: data.view, answers: data.answers, split, settings: settings({ epochs: 1 }), profile: activeProfile() },
      l,
      control,
    );
    expect(states).toEqual(['compiling', 'training', 'paused', 'training']);
    expect(result.reason).toBe('finished');
    expect(result.steps).toBe(split.train.length);
    disposeParams(params);
  });
});
