import * as tf from '@tensorflow/tfjs';
import { beforeAll, expect, it } from 'vitest';
import { type LossScaleState, nextLossScale } from './lossScale.ts';
import { LossScaler } from './lossScaler.ts';

beforeAll(async () => {
  expect(await tf.setBackend('cpu')).toBe(true);
});

it("the device's update (the composition, where no kernel is registered) follows the host rule step by step", async () => {
  const rule = { initScale: 2 ** 16, growthFactor: 2, backoffFactor: 0.5, growthInterval: 3 };
  const flags = [true, true, true, true, false, true, false, false, true, true, true, true, true, true, true];
  const scaler = new LossScaler(rule);
  let host: LossScaleState = { scale: rule.initScale, cleanSteps: 0 };
  const tensors = tf.memory().numTensors;
  for (const f of flags) {
    const finite = tf.scalar(f);
    scaler.update(finite);
    finite.dispose();
    host = nextLossScale(host, f, rule);
    expect(await scaler.read()).toEqual(host);
  }
  // Updates leave nothing behind: the state is assigned, not piled up.
  expect(tf.memory().numTensors).toBe(tensors);
  expect(host.scale).toBe(2 ** 16); // the sequence doubled, halved twice, doubled twice
  scaler.dispose();
});

it('the device never grows the scale past float32, as the host rule', async () => {
  const rule = { initScale: 2 ** 127, growthFactor: 2, backoffFactor: 0.5, growthInterval: 1 };
  const scaler = new LossScaler(rule);
  scaler.update(tf.scalar(true));
  expect(await scaler.read()).toEqual(nextLossScale({ scale: 2 ** 127, cleanSteps: 0 }, true, rule));
  expect((await scaler.read()).scale).toBe(2 ** 127);
  const scale = scaler.scale();
  expect(scale.shape).toEqual([]);
  expect((await scale.data())[0]).toBe(2 ** 127);
  scaler.dispose();
});
