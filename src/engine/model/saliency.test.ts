/**
 * Per-token gradient × input of the energy (saliency.ts) against torch autograd in float64
 * (python/scripts/saliency_reference.py) on the same weights and ids: the fixture model (no positions)
 * and a small model with learned positions (x0 then includes them), on the tfjs cpu and wasm backends.
 * Needs a Python with torch; without one it fails and says how to get it.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeModel } from '../io/modelFile.ts';
import { INSTALL_TORCH, findPython, runPython } from '../testing/pythonNode.ts';
import { fixtureDir } from '../testing/fixtureDir.ts';
import { readFixture } from '../testing/readFixtureNode.ts';
import { GPT2_EOT, GPT2_VOCAB, type ModelConfig, configFromReference, makeConfig } from './config.ts';
import { type ParamArrays, disposeParams, initParams, paramsFromArrays, paramsToArrays } from './params.ts';
import { tokenSaliency } from './saliency.ts';
import { energies } from './transebm.ts';

/**
 * Each token's attribution within 1e-5 of the candidate's largest |attribution| plus 1e-7 (float32
 * against float64: a candidate whose attributions are all small still carries the forward's absolute
 * rounding, a few 1e-8 here); energies within the fixtures' 1e-6.
 */
const SCORE_RTOL = 1e-5;
const SCORE_ATOL = 1e-7;
const ENERGY_ATOL = 1e-6;

const dir = mkdtempSync(join(tmpdir(), 'eorm-saliency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { python, tried } = findPython();

interface Reference {
  energies: number[];
  scores: number[][];
}

function reference(weights: string, config: ModelConfig | null, candidates: number[][]): Reference {
  if (!python) throw new Error(`No Python with torch found (${tried.join('; ')}). ${INSTALL_TORCH}`);
  const request = join(dir, `request-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(request, JSON.stringify({ weights, config, candidates }));
  return JSON.parse(runPython(python, ['scripts/saliency_reference.py', request], { OMP_NUM_THREADS: '1' })) as Reference;
}

/** Largest |app − reference| over the candidate's tokens, and its largest |reference|. */
function scoreError(app: Float32Array, ref: number[]): { error: number; scale: number } {
  expect(app.length).toBe(ref.length);
  return { error: Math.max(...ref.map((r, t) => Math.abs(app[t] - r))), scale: Math.max(...ref.map(Math.abs)) };
}

async function checkAgainstReference(backend: 'cpu' | 'wasm', cfg: ModelConfig, arrays: ParamArrays, candidates: number[][], ref: Reference) {
  expect(await tf.setBackend(backend)).toBe(true);
  const params = paramsFromArrays(cfg, arrays);
  try {
    const before = tf.memory().numTensors;
    let worstAbs = 0;
    let worstRel = 0;
    for (const [i, ids] of candidates.entries()) {
      const s = await tokenSaliency(cfg, params, ids);
      expect(Math.abs(s.energy - ref.energies[i])).toBeLessThanOrEqual(ENERGY_ATOL);
      const { error, scale } = scoreError(s.scores, ref.scores[i]);
      expect(error, `candidate ${i}`).toBeLessThanOrEqual(SCORE_RTOL * scale + SCORE_ATOL);
      worstAbs = Math.max(worstAbs, error);
      worstRel = Math.max(worstRel, error / scale);
    }
    console.log(`${backend}: ${candidates.length} candidates, max |Δ attribution| = ${worstAbs.toExponential(2)}, relative to the candidate's largest ${worstRel.toExponential(2)}`);
    expect(tf.memory().numTensors).toBe(before);
  } finally {
    disposeParams(params);
  }
}

describe('per-token saliency equals torch autograd', () => {
  const fixture = readFixture();
  const cfg = configFromReference(fixture.referenceConfig);
  const candidates = fixture.caseJson.groups.flatMap((g) => g.ids.map((row, b) => row.slice(0, g.lengths[b])));
  let ref: Reference | null = null;
  const fixtureRef = () => (ref ??= reference(join(fixtureDir(), 'weights.safetensors'), cfg, candidates));

  for (const backend of ['cpu', 'wasm'] as const) {
    it(`on the fixture model (${candidates.length} candidates, tfjs ${backend})`, async () => {
      await checkAgainstReference(backend, cfg, fixture.weights, candidates, fixtureRef());
    }, 120_000);
  }

  it('the fixture energies are those the forward gives', async () => {
    await tf.setBackend('cpu');
    const expected = fixture.caseJson.groups.flatMap((g) => g.energies);
    const params = paramsFromArrays(cfg, fixture.weights);
    try {
      for (const [i, ids] of candidates.entries()) {
        const s = await tokenSaliency(cfg, params, ids);
        expect(Math.abs(s.energy - expected[i])).toBeLessThanOrEqual(ENERGY_ATOL);
        const e = tf.tidy(() => energies(cfg, params, { ids: tf.tensor2d([ids], [1, ids.length], 'int32'), lengths: tf.tensor1d([ids.length], 'int32') }));
        expect(Math.abs(s.energy - (await e.data())[0])).toBeLessThanOrEqual(ENERGY_ATOL);
        e.dispose();
      }
    } finally {
      disposeParams(params);
    }
  });

  it('with learned positions, x0 includes each token\'s position (tfjs cpu)', async () => {
    await tf.setBackend('cpu');
    const small = makeConfig({ vocabSize: GPT2_VOCAB, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 40, dropout: 0.2, maxLen: 48, clsId: GPT2_EOT, sepId: GPT2_EOT, padId: GPT2_EOT, positional: 'learned' });
    const init = initParams(small, 11);
    const arrays = await paramsToArrays(init);
    disposeParams(init);
    // Biases and norms away from 0 and 1, so that each of them shapes the gradient.
    let k = 0;
    for (const a of arrays.values()) for (let i = 0; i < a.length; i++) a[i] += 0.05 * Math.sin(++k * 0.7);
    const weights = join(dir, 'learned.safetensors');
    writeFileSync(weights, writeModel({ cfg: small, tensors: arrays, metadata: { tokenizer: 'r50k_base' } }));
    const inputs = [candidates[3].slice(0, small.maxLen), candidates[0], [GPT2_EOT]];
    await checkAgainstReference('cpu', small, arrays, inputs, reference(weights, null, inputs));
  }, 120_000);

  it('refuses inputs longer than maxLen or empty', async () => {
    await expect(tokenSaliency(cfg, new Map(), [])).rejects.toThrow(/1 to/);
    await expect(tokenSaliency({ ...cfg, maxLen: 4 }, new Map(), [1, 2, 3, 4, 5])).rejects.toThrow(/1 to 4/);
  });
});
