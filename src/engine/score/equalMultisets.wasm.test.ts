/**
 * Issue 48, point 9: a model without positional encoding gives inputs with the same ids in another order the
 * same energy in exact arithmetic; in float32 (WASM, WebGPU, torch) the order of the attention sums moves the
 * last bits, so the app and Python picked different candidates of a tie. scoreDistinct scores such inputs
 * once: exactly equal, the tie then goes to the first on both sides. On WASM, whose kernels sum in float32
 * (the CPU backend sums in doubles and hides the difference).
 */
import '@tensorflow/tfjs-backend-wasm';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { activeProfile } from '../backend/profile.ts';
import { createRng } from '../shared/rng.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { argminEnergy } from '../metrics/rank.ts';
import { scoreDistinct } from './distinctInputs.ts';

beforeAll(async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
});

describe('inputs with the same ids in another order', () => {
  it('score exactly alike, and the first of them is picked', async () => {
    const cfg = makeConfig({ vocabSize: 200, dModel: 64, nHeads: 2, nLayers: 2, ffnDim: 256, dropout: 0, maxLen: 64, clsId: 0, sepId: 1, padId: 2 });
    const params = initParams(cfg, 5);
    const rng = createRng(2);
    const inputs: number[][] = [];
    for (let t = 0; t < 12; t++) {
      const rest = Array.from({ length: 8 + rng.int(40) }, () => 3 + rng.int(197));
      const shuffled = [...rest].sort(() => rng.next() - 0.5);
      inputs.push([0, ...rest], [0, ...shuffled]);
    }
    const e = await scoreDistinct(cfg, params, inputs, { profile: activeProfile() });
    disposeParams(params);
    const pairs = Array.from({ length: 12 }, (_, t) => [e[2 * t], e[2 * t + 1]]);
    expect(pairs.filter(([a, b]) => a !== b)).toEqual([]);
    expect(pairs.map((p) => argminEnergy(p))).toEqual(pairs.map(() => 0));
  });
});
