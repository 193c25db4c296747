import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig, paramShapes } from './config.ts';
import { cloneParams, disposeParams, paramsFromArrays, paramsToArrays } from './params.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 16, dModel: 8, nHeads: 2, nLayers: 1, maxLen: 8, clsId: 15, sepId: 15, padId: 15 });
const arrays = () => new Map(paramShapes(cfg).map(([name, shape], k) => [name, new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(k)]));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('paramsFromArrays', () => {
  it('round-trips through paramsToArrays', async () => {
    const params = paramsFromArrays(cfg, arrays());
    const back = await paramsToArrays(params, activeProfile());
    expect([...back.keys()]).toEqual(paramShapes(cfg).map(([name]) => name));
    expect(back).toEqual(arrays());
    disposeParams(params);
  });

  it('frees the variables it already made when a later parameter is missing or mis-sized', () => {
    const names = paramShapes(cfg).map(([name]) => name);
    const last = names[names.length - 1];
    const before = tf.memory().numTensors;
    const missing = arrays();
    missing.delete(last);
    expect(() => paramsFromArrays(cfg, missing)).toThrow(`parameter "${last}" is missing`);
    const short = arrays();
    short.set(last, new Float32Array(short.get(last)!.length + 1));
    expect(() => paramsFromArrays(cfg, short)).toThrow(`parameter "${last}" has ${short.get(last)!.length} values`);
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('cloneParams', () => {
  it('copies the values, even from a variable whose buffer is a JS array written in place later', async () => {
    // On the CPU backend a tensor made from a Float32Array keeps that very array (the lazy embedding's sync does this).
    const live = new Float32Array([1, -0, 3]);
    const source = new Map([['w', tf.variable(tf.tensor1d(live))]]);
    const copy = cloneParams(source);
    live[0] = 9;
    const values = await copy.get('w')!.data();
    expect(Array.from(values)).toEqual([1, -0, 3]);
    expect(Object.is(values[1], -0)).toBe(true);
    disposeParams(copy);
    disposeParams(source);
  });
});
