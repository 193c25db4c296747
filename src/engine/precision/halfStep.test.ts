import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BackendProfile, detectProfile } from '../backend/profile.ts';
import '../kernels/columnSum/host.ts';
import { HALF_MAT_MUL_HOST } from '../kernels/halfMatMul/host.ts';
import { registerKernels } from '../kernels/register.ts';
import { ADAMW_DEFAULTS, AdamW } from '../model/adamw.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams, paramsToArrays } from '../model/params.ts';
import { type StepBatch, lossAndGradients } from '../train/step/gradients.ts';
import { trainStep } from '../train/step/step.ts';
import { LossScaler } from './lossScaler.ts';

/**
 * Half precision's training step on the CPU backend, the WebGPU kernel's rounding emulated on the host
 * (kernels/halfMatMul/host.ts), against the float32 step: what the f16 path costs in numbers, and the
 * loss scaler's part in it, checked without a GPU.
 */
const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, maxLen: 64, dropout: 0, clsId: 63, sepId: 63, padId: 63 });

function batchOf(seed: number): StepBatch {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const candidates = Array.from({ length: 8 }, () =>
    Int32Array.from([63, ...Array.from({ length: 5 + Math.floor(next() * 20) }, () => 1 + Math.floor(next() * 60))]),
  );
  return { candidates, labels: [1, 0, 0, 1, 0, 1, 0, 0], groupOf: [0, 0, 0, 0, 1, 1, 1, 1] };
}

let f32: BackendProfile;
let half: BackendProfile;

beforeAll(async () => {
  expect(await tf.setBackend('cpu')).toBe(true);
  registerKernels(['cpu'], HALF_MAT_MUL_HOST);
  f32 = { ...detectProfile('cpu'), halfPrecision: false };
  half = { ...f32, halfPrecision: true };
});

/** ‖x − y‖ / ‖y‖ over every gradient, x's divided by `scale`. */
function relativeError(x: Map<string, tf.Tensor>, y: Map<string, tf.Tensor>, scale: number): number {
  let [num, den] = [0, 0];
  for (const [name, g] of y) {
    const [a, b] = [x.get(name)!.dataSync(), g.dataSync()];
    for (let i = 0; i < b.length; i++) {
      num += (a[i] / scale - b[i]) ** 2;
      den += b[i] ** 2;
    }
  }
  return Math.sqrt(num / den);
}

describe('the half-precision step (f16 products emulated on the CPU)', () => {
  it('gives the float32 loss and gradients within f16’s tolerance under the default loss scale, and loses small gradients without it', () => {
    const params = initParams(cfg, 5);
    const batch = batchOf(11);
    const plain = lossAndGradients(cfg, params, batch, { profile: f32 });
    const errors: Record<string, number> = {};
    for (const scale of [2 ** 16, 2 ** -30]) {
      const scaled = lossAndGradients(cfg, params, batch, { profile: half, lossScale: tf.scalar(scale) });
      // The loss is unscaled: f16 products through two layers move it by about f16's roundoff (2^-11), not by the scale.
      expect(Math.abs(scaled.loss.dataSync()[0] - plain.loss.dataSync()[0])).toBeLessThan(2e-3 * Math.abs(plain.loss.dataSync()[0]));
      errors[scale] = relativeError(scaled.grads, plain.grads, scale);
      tf.dispose([scaled.loss, ...scaled.grads.values()]);
    }
    // Scaled by 2^16: f16's roundoff (2^-11 ≈ 5e-4) compounded through two layers' products, forward and
    // backward, with cancellation in the small gradients: about 1e-2 relative (8e-3 here); 2e-2 the bound.
    expect(errors[2 ** 16]).toBeLessThan(2e-2);
    expect(errors[2 ** 16]).toBeGreaterThan(1e-6); // f16 really rounds: not float32's figures
    // Scaled by 2^-30 the upstream gradients fall below f16's smallest subnormal (6e-8) and flush to 0:
    // the gradients are lost, which is what the loss scale is for.
    expect(errors[2 ** -30]).toBeGreaterThan(0.5);
    tf.dispose([plain.loss, ...plain.grads.values()]);
    disposeParams(params);
  });

  it('trains as the float32 step does, with the scale counting clean steps', async () => {
    const losses: Record<string, number[]> = { f32: [], half: [] };
    for (const which of ['f32', 'half'] as const) {
      const profile = which === 'half' ? half : f32;
      const params = initParams(cfg, 5);
      const optimizer = new AdamW(params, ADAMW_DEFAULTS, false, profile);
      const scaler = which === 'half' ? new LossScaler({ initScale: 2 ** 16, growthFactor: 2, backoffFactor: 0.5, growthInterval: 3 }) : undefined;
      for (let s = 0; s < 4; s++) {
        const out = await trainStep(cfg, params, optimizer, batchOf(20 + (s % 2)), { lr: 1e-2, maxGradNorm: 1, lossScaler: scaler });
        losses[which].push((await out.loss.data())[0]);
        tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
      }
      if (scaler) {
        // Four clean steps with a growth interval of 3: doubled once, one clean step since.
        expect(await scaler.read()).toEqual({ scale: 2 ** 17, cleanSteps: 1 });
        scaler.dispose();
      }
      optimizer.dispose();
      disposeParams(params);
    }
    // The same batches twice each: both runs learn them (the loss falls) and stay within f16's tolerance of each other.
    expect(losses.half[2]).toBeLessThan(losses.half[0]);
    // Within four units of f16's roundoff (about 2e-4 apart here).
    for (let s = 0; s < 4; s++) expect(Math.abs(losses.half[s] - losses.f32[s]), `step ${s}`).toBeLessThan(2e-3 * losses.f32[s]);
  });

  it('skips an overflowing step (no weight moves) and halves the scale', async () => {
    const params = initParams(cfg, 5);
    const before = await paramsToArrays(params, half);
    const optimizer = new AdamW(params, ADAMW_DEFAULTS, false, half);
    // 2^40 times the loss: the scaled upstream gradients pass f16's 65504, the products poison their tiles.
    const scaler = new LossScaler({ initScale: 2 ** 40, growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000 });
    const out = await trainStep(cfg, params, optimizer, batchOf(3), { lr: 1e-2, maxGradNorm: 1, lossScaler: scaler });
    expect(Number.isFinite((await out.loss.data())[0])).toBe(true);
    expect(Number.isFinite((await out.gradNorm.data())[0])).toBe(false);
    expect(await scaler.read()).toEqual({ scale: 2 ** 39, cleanSteps: 0 });
    const after = await paramsToArrays(params, half);
    for (const [name, values] of before) expect(Array.from(after.get(name)!), name).toEqual(Array.from(values));
    tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
    scaler.dispose();
    optimizer.dispose();
    disposeParams(params);
  });
});
