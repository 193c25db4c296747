import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig, paramShapes } from './config.ts';
import { disposeParams, paramsFromArrays, paramsToArrays } from './params.ts';

const cfg = makeConfig({ vocabSize: 16, dModel: 8, nHeads: 2, nLayers: 1, maxLen: 8, clsId: 15, sepId: 15, padId: 15 });
const arrays = () => new Map(paramShapes(cfg).map(([name, shape], k) => [name, new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(k)]));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('paramsFromArrays', () => {
  it('round-trips through paramsToArrays', async () => {
    const params = paramsFromArrays(cfg, arrays());
    const back = await paramsToArrays(params);
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
