import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { AdamW } from '../../model/adamw.ts';
import { makeConfig } from '../../model/config.ts';
import { disposeParams, initParams } from '../../model/params.ts';
import type { StepBatch } from './gradients.ts';
import { trainStep } from './step.ts';
import { activeProfile } from '../../backend/profile.ts';

// A small vocabulary keeps the weights small, so activations (what micro-batching bounds) dominate memory.
const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, maxLen: 48, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });

function group(n: number): StepBatch {
  const rng = createRng(n);
  const candidates = Array.from({ length: n }, () => [63, ...Array.from({ length: 40 + rng.int(8) }, () => 1 + rng.int(60))]);
  return { candidates, labels: candidates.map((_, i) => (i % 3 === 0 ? 1 : 0)), groupOf: candidates.map(() => 0) };
}

/** Peak bytes held by tensors during one optimizer step (tf.profile tracks every allocation). */
async function peakBytes(batch: StepBatch, microBatch?: number): Promise<{ peak: number; loss: number }> {
  const params = initParams(cfg, 1);
  const opt = new AdamW(params, undefined, undefined, activeProfile());
  let loss = NaN;
  const info = await tf.profile(async () => {
    const s = await trainStep(cfg, params, opt, batch, { lr: 1e-3, maxGradNorm: 1, microBatch, dropoutSeed: 3 });
    loss = (await s.loss.data())[0];
    tf.dispose([s.loss, s.gradNorm, s.clipCoef]);
  });
  opt.dispose();
  disposeParams(params);
  return { peak: info.peakBytes, loss };
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('micro-batched step memory', () => {
  it('trains a 256-candidate group with a peak that does not grow with the group size', async () => {
    const small = await peakBytes(group(32), 8);
    const large = await peakBytes(group(256), 8);
    const onePass = await peakBytes(group(256));
    console.log(`peak bytes: 32 candidates, micro-batch 8: ${small.peak}; 256, micro-batch 8: ${large.peak}; 256 in one pass: ${onePass.peak}`);
    expect(Number.isFinite(large.loss)).toBe(true);
    // 8× the candidates: only the group's correct × incorrect pair matrix and the energies grow.
    expect(large.peak).toBeLessThan(small.peak * 1.3);
    // The one-pass step holds every candidate's activations at once.
    expect(onePass.peak).toBeGreaterThan(large.peak * 4);
  });
});
