import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { activeProfile, type BackendProfile, detectProfile, useProfile } from '../../backend/profile.ts';
import { createRng } from '../../shared/rng.ts';
import { ADAMW_DEFAULTS, AdamW } from '../../model/adamw.ts';
import { makeConfig } from '../../model/config.ts';
import { type ParamArrays, disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../../model/params.ts';
import { lossAndGradients } from './gradients.ts';
import { lossFreeRange } from './lossFreeGradients.ts';
import { peerWork } from './peerWork.ts';
import { sharedLossAndGradients } from './sharedStep.ts';
import { trainStep } from './step.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 32, maxLen: 40, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });

function batchOf(seed: number) {
  const rng = createRng(seed);
  const candidates = Array.from({ length: 7 }, () => [63, ...Array.from({ length: 3 + rng.int(30) }, () => rng.int(63))]);
  return { candidates, labels: [1, 0, 0, 1, 0, 1, 0], groupOf: [0, 0, 0, 0, 1, 1, 1] };
}

/** Weights with every loss-free entry moved off its initial value (so weight decay shows), by `shift`. */
async function weights(seed: number, shift: (name: string, i: number) => number): Promise<ParamArrays> {
  const params = initParams(cfg, seed);
  const arrays = await paramsToArrays(params, activeProfile());
  disposeParams(params);
  for (const [name, x] of arrays) for (let i = 0; i < x.length; i++) x[i] += shift(name, i);
  return arrays;
}

const inLossFree = (name: string, i: number) => {
  const r = lossFreeRange(name, cfg.dModel);
  return r !== null && i >= r[0] && i < r[1];
};
const keyBiasOrHead = (name: string, i: number) => (inLossFree(name, i) ? 0.3 + 0.01 * i : 0);
const queryBias = (name: string, i: number) => (name.endsWith('self_attn.in_proj_bias') && i < cfg.dModel ? 0.3 + 0.01 * i : 0);

async function lossAt(arrays: ParamArrays): Promise<number> {
  const params = paramsFromArrays(cfg, arrays);
  const { loss, grads } = lossAndGradients(cfg, params, batchOf(1), { dropoutSeed: 4, profile: activeProfile() });
  const value = (await loss.data())[0];
  tf.dispose([loss, ...grads.values()]);
  disposeParams(params);
  return value;
}

async function profileOn(backend: string, shared: boolean): Promise<BackendProfile> {
  expect(await tf.setBackend(backend)).toBe(true);
  const profile = { ...detectProfile(backend), ...(shared ? { packedForward: true, sharedSteps: true } : {}) };
  useProfile(profile);
  return profile;
}

afterEach(() => useProfile(null));

describe('loss-free gradient entries', () => {
  it('are the entries no loss depends on: moving them leaves the loss to float rounding, moving the query bias does not', async () => {
    await profileOn('cpu', false);
    const base = await lossAt(await weights(2, () => 0));
    expect(Math.abs((await lossAt(await weights(2, keyBiasOrHead))) - base)).toBeLessThan(1e-6);
    expect(Math.abs((await lossAt(await weights(2, queryBias))) - base)).toBeGreaterThan(1e-4);
  });

  for (const backend of ['cpu', 'wasm']) {
    it(`come back exactly 0 from every way a step's gradients are formed on ${backend}, before the global norm`, async () => {
      const profile = await profileOn(backend, true);
      const params = paramsFromArrays(cfg, await weights(3, keyBiasOrHead));
      const model = { cfg, weights: [...(await paramsToArrays(params, activeProfile()))] };
      const batch = batchOf(5);
      const paths = [
        () => lossAndGradients(cfg, params, batch, { dropoutSeed: 9, profile }),
        () => lossAndGradients(cfg, params, batch, { dropoutSeed: 9, microBatch: 3, profile }),
        () => sharedLossAndGradients(cfg, params, batch, { dropoutSeed: 9, profile }),
        () =>
          sharedLossAndGradients(cfg, params, batch, { dropoutSeed: 9, microBatch: 3, profile }, { peer: peerWork(Promise.resolve(activeProfile())), model }),
      ];
      for (const path of paths) {
        const { loss, grads } = await path();
        let checked = 0;
        for (const [name, g] of grads) {
          const x = (await g.data()) as Float32Array;
          for (let i = 0; i < x.length; i++) {
            if (!inLossFree(name, i)) continue;
            expect(Object.is(x[i], 0) || Object.is(x[i], -0), `${name}[${i}] = ${x[i]}`).toBe(true);
            checked++;
          }
        }
        // Every layer's key bias and the head's bias.
        expect(checked).toBe(cfg.nLayers * cfg.dModel + 1);
        tf.dispose([loss, ...grads.values()]);
      }
      disposeParams(params);
    });
  }

  // Full-vocabulary AdamW on cpu, the lazy embedding on cpu, the shared step on wasm (with a peer).
  for (const [backend, lazy, shared] of [
    ['cpu', false, false],
    ['cpu', true, false],
    ['wasm', true, true],
  ] as const) {
    it(`only decay with weight decay over 12 steps (${backend}, lazy embedding ${lazy ? 'on' : 'off'}${shared ? ', shared steps' : ''})`, async () => {
      const profile = await profileOn(backend, shared);
      const start = await weights(6, keyBiasOrHead);
      const params = paramsFromArrays(cfg, start);
      const optimizer = new AdamW(params, ADAMW_DEFAULTS, lazy, profile);
      const lr = 3e-3;
      const steps = 12;
      for (let s = 0; s < steps; s++) {
        const out = await trainStep(cfg, params, optimizer, batchOf(100 + s), {
          lr,
          maxGradNorm: 1,
          dropoutSeed: s,
          peer: shared ? peerWork(Promise.resolve(activeProfile())) : undefined,
        });
        tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
      }
      optimizer.sync(params);
      const end = await paramsToArrays(params, activeProfile());
      const decay = (1 - lr * ADAMW_DEFAULTS.weightDecay) ** steps;
      let worstFree = 0;
      let moved = 0;
      for (const [name, x] of end) {
        const x0 = start.get(name)!;
        for (let i = 0; i < x.length; i++) {
          if (inLossFree(name, i)) worstFree = Math.max(worstFree, Math.abs(x[i] - x0[i] * decay));
          else moved = Math.max(moved, Math.abs(x[i] - x0[i]));
        }
      }
      // Float rounding of 12 multiplications; a rounding-driven AdamW step would be about lr.
      expect(worstFree).toBeLessThan(1e-6);
      // The other weights trained: the check above can fail.
      expect(moved).toBeGreaterThan(10 * lr);
      disposeParams(params);
      optimizer.dispose();
    });
  }
});
