import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile } from '../backend/profile.ts';
import { HALF_MAT_MUL } from '../kernels/halfMatMul/op.ts';
import { halfMatMulFamily } from '../kernels/halfMatMul/webgpu.ts';
import { LOSS_SCALE_UPDATE } from '../kernels/lossScale/op.ts';
import { LOSS_SCALE_WEBGPU } from '../kernels/lossScale/webgpu.ts';
import { registerKernels } from '../kernels/register.ts';
import { replaySummary, stepReplay } from '../kernels/webgpu/replay/stepReplay.ts';
import { ADAMW_DEFAULTS, AdamW } from '../model/adamw.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { halfPrecisionChoice, webgpuDeviceFeatures } from '../precision/choice.ts';
import type { LossScaleState } from '../precision/lossScale.ts';
import { LossScaler } from '../precision/lossScaler.ts';
import type { StepBatch } from '../train/step/gradients.ts';
import { trainStep } from '../train/step/step.ts';

/** halfStepParity's figures: the half-precision steps against the float32 ones, on WebGPU. */
export interface HalfStepParity {
  /** The product kernel's element type: f16 where the device has shader-f16, else f32 (the same kernel, checking the path). */
  element: 'f16' | 'f32';
  steps: number;
  /** Steps of the half-precision run that were replayed. */
  replayed: number;
  /** Largest |Δ| / value between the runs' losses and gradient norms: replayed, and run through tfjs every step. */
  lossRel: number;
  gradNormRel: number;
  unreplayed: { lossRel: number; gradNormRel: number };
  /** The loss scale after the replayed run's steps (and the other's), and what the AMP rule gives for as many clean steps. */
  scale: LossScaleState;
  unreplayedScale: LossScaleState;
  expectedScale: LossScaleState;
  /** Each step's loss: float32, half precision replayed. */
  losses: { f32: number[]; half: number[] };
}

const STEPS = 8;
const RULE = { initScale: 2 ** 16, growthFactor: 2, backoffFactor: 0.5, growthInterval: 3 };
const cfg = makeConfig({ vocabSize: 512, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 32, dropout: 0.1, maxLen: 64, clsId: 1, sepId: 2, padId: 0 });

/**
 * Eight training steps of a small model on WebGPU, float32 and then half precision (the profile's
 * halfPrecision, with its loss scaler), from the same weights on the same batches of one shape, so the
 * half-precision steps are recorded and replayed with the scale's state among their externals. Where
 * the device has no shader-f16 (SwiftShader) the product kernel runs in f32: the figures then check the
 * path (routing, scaling, the in-place scale under replay) to float32's rounding; with f16, to f16's.
 * Null off WebGPU.
 */
export async function halfStepParity(): Promise<HalfStepParity | null> {
  if (tf.getBackend() !== 'webgpu') return null;
  const f16 = halfPrecisionChoice('webgpu', webgpuDeviceFeatures()).half;
  if (!tf.getKernel(HALF_MAT_MUL, 'webgpu')) registerKernels(['webgpu'], halfMatMulFamily(f16));
  if (!tf.getKernel(LOSS_SCALE_UPDATE, 'webgpu')) registerKernels(['webgpu'], LOSS_SCALE_WEBGPU);
  const base = activeProfile();
  const batches = Array.from({ length: STEPS }, (_, s) => batch(s));
  const plain = await train({ ...base, halfPrecision: false }, batches, null);
  const scalers = [new LossScaler(RULE), new LossScaler(RULE)];
  const unreplayed = await train({ ...base, halfPrecision: true, replaySteps: false }, batches, scalers[0]);
  const half = await train({ ...base, halfPrecision: true }, batches, scalers[1]);
  const rel = (x: number[], y: number[]) => Math.max(...x.map((v, i) => Math.abs(v - y[i]) / Math.abs(y[i])));
  let expected: LossScaleState = { scale: RULE.initScale, cleanSteps: 0 };
  for (let s = 0; s < STEPS; s++)
    expected =
      (s + 1) % RULE.growthInterval === 0 ? { scale: expected.scale * 2, cleanSteps: 0 } : { scale: expected.scale, cleanSteps: expected.cleanSteps + 1 };
  const [unreplayedScale, scale] = await Promise.all(scalers.map((x) => x.read()));
  for (const x of scalers) x.dispose();
  return {
    element: f16 ? 'f16' : 'f32',
    steps: STEPS,
    replayed: half.replayed,
    lossRel: rel(half.losses, plain.losses),
    gradNormRel: rel(half.norms, plain.norms),
    unreplayed: { lossRel: rel(unreplayed.losses, plain.losses), gradNormRel: rel(unreplayed.norms, plain.norms) },
    scale,
    unreplayedScale,
    expectedScale: expected,
    losses: { f32: plain.losses, half: half.losses },
  };
}

function batch(s: number): StepBatch {
  const candidates = Array.from({ length: 4 }, (_, i) =>
    Int32Array.from({ length: 40 + i * 5 }, (_, t) => (t === 0 ? 1 : 3 + ((s * 31 + i * 17 + t * 7) % 500))),
  );
  return { candidates, labels: [1, 0, 1, 0], groupOf: [0, 0, 0, 0] };
}

async function train(profile: BackendProfile, batches: StepBatch[], scaler: LossScaler | null) {
  const params = initParams(cfg, 5);
  const optimizer = new AdamW(params, ADAMW_DEFAULTS, false, profile);
  const before = replaySummary()?.replays ?? 0;
  const losses: number[] = [];
  const norms: number[] = [];
  try {
    for (let s = 0; s < batches.length; s++) {
      const out = await trainStep(cfg, params, optimizer, batches[s], { lr: 1e-3, maxGradNorm: 1, dropoutSeed: 500 + s, lossScaler: scaler ?? undefined });
      const [loss, norm] = await Promise.all([out.loss.data(), out.gradNorm.data()]);
      losses.push(loss[0]);
      norms.push(norm[0]);
      tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
    }
    return { losses, norms, replayed: (replaySummary()?.replays ?? 0) - before };
  } finally {
    // The recordings bind this run's weights: gone with them.
    stepReplay().clear();
    optimizer.dispose();
    disposeParams(params);
  }
}
