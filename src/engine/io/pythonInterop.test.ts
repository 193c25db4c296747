/**
 * Weights go both ways between the app and the PyTorch package in python/ (see README, "Training at scale"):
 * - a model made here and written with writeModel scores the same energies in `python -m eorm.score`;
 * - a checkpoint trained by `python -m eorm.train` imports here (readModel + paramsFromArrays) and scores
 *   the same energies with scoreCandidates.
 * Both within 1e-5. These need a Python with torch; without one they fail and say how to get it.
 */
import * as tf from '@tensorflow/tfjs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesStream, readDataset } from '../data/testing/node.ts';
import { tokenizeChunk } from '../data/tokenize/tokenize.ts';
import type { Dataset } from '../data/types.ts';
import { type ModelConfig, makeConfig } from '../model/config.ts';
import { GPT2_EOT, GPT2_VOCAB } from '../data/tokenize/gpt2.ts';
import { disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { evaluateGroups, type ScoredGroup } from '../metrics/summary.ts';
import { scoreCandidates } from '../score/scoring.ts';
import { readModel, writeModel } from './modelFile.ts';
import { INSTALL_TORCH as INSTALL, PYTHON_DIR, findPython, runPython as runPythonIn } from '../testing/pythonNode.ts';
import { activeProfile } from '../backend/profile.ts';

const TOL = 1e-5;
const runPython = (python: string, args: string[]) => runPythonIn(python, args, { OMP_NUM_THREADS: '1' });

/** `python -m eorm.score` energies by 1-based line number. */
function pythonEnergies(python: string, weights: string, data: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of runPython(python, ['-m', 'eorm.score', '--weights', weights, '--data', data, '--curve-subsets', '0']).trim().split('\n')) {
    const rec = JSON.parse(line) as { line?: number; energy?: number };
    if (rec.line !== undefined) out.set(rec.line, rec.energy!);
  }
  return out;
}

/** Energies the app computes for every candidate of the dataset, by line number. */
async function appEnergies(cfg: ModelConfig, arrays: Map<string, Float32Array>, dataset: Dataset): Promise<Map<number, number>> {
  const chunk = tokenizeChunk({
    maxLen: cfg.maxLen,
    clsId: cfg.clsId,
    sepId: cfg.sepId,
    questions: dataset.groups.map((g) => g.question),
    groupSizes: dataset.groups.map((g) => g.candidates.length),
    genTexts: dataset.groups.flatMap((g) => g.candidates.map((c) => c.genText)),
  });
  const candidates = Array.from({ length: chunk.offsets.length - 1 }, (_, i) => chunk.tokens.subarray(chunk.offsets[i], chunk.offsets[i + 1]));
  const params = paramsFromArrays(cfg, arrays);
  try {
    const e = await scoreCandidates(cfg, params, candidates, { profile: activeProfile() });
    const lines = dataset.groups.flatMap((g) => g.candidates.map((c) => c.line));
    return new Map(lines.map((line, i) => [line, e[i]]));
  } finally {
    disposeParams(params);
  }
}

function maxDiff(app: Map<number, number>, py: Map<number, number>): number {
  expect([...py.keys()].sort((a, b) => a - b)).toEqual([...app.keys()].sort((a, b) => a - b));
  let worst = 0;
  for (const [line, e] of app) worst = Math.max(worst, Math.abs(e - py.get(line)!));
  return worst;
}

const scored = (dataset: Dataset, energies: Map<number, number>): ScoredGroup[] =>
  dataset.groups.map((g) => ({
    energies: g.candidates.map((c) => energies.get(c.line)!),
    labels: g.candidates.map((c) => c.label),
    answers: g.candidates.map((c) => c.answerKey),
  }));

// 12 questions of the sample, 4 answers each; a small model with the real GPT-2 vocabulary.
const sample = readFileSync(join(PYTHON_DIR, '../public/sample/gsm8k_gpt3_openai_4cand.jsonl'), 'utf8').split('\n').slice(0, 48).join('\n') + '\n';
let dir = '';
let dataPath = '';
let dataset: Dataset;
const { python, tried } = findPython();

beforeAll(async () => {
  await tf.setBackend('cpu');
  dir = mkdtempSync(join(tmpdir(), 'eorm-interop-'));
  dataPath = join(dir, 'data.jsonl');
  writeFileSync(dataPath, sample);
  dataset = await readDataset(bytesStream(sample));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('weights between the app and python/ (PyTorch)', () => {
  it('finds a Python with torch', () => {
    expect(python, `No Python with torch found (${tried.join('; ')}). ${INSTALL}`).not.toBeNull();
  });

  it("an app model exported as .safetensors gives the app's energies in `python -m eorm.score`", async () => {
    if (!python) throw new Error(`No Python with torch. ${INSTALL}`);
    const cfg = makeConfig({
      vocabSize: GPT2_VOCAB,
      dModel: 16,
      nHeads: 2,
      nLayers: 2,
      ffnDim: 40,
      dropout: 0.2,
      maxLen: 48,
      clsId: GPT2_EOT,
      sepId: GPT2_EOT,
      padId: GPT2_EOT,
    });
    const init = initParams(cfg, 7);
    const arrays = await paramsToArrays(init, activeProfile());
    disposeParams(init);
    // Every parameter away from its initial value (zero biases, unit norms), so each one is exercised.
    let k = 0;
    for (const a of arrays.values()) for (let i = 0; i < a.length; i++) a[i] += 0.05 * Math.sin(++k * 0.7);
    const weights = join(dir, 'app.safetensors');
    writeFileSync(weights, writeModel({ cfg, tensors: arrays, metadata: { tokenizer: 'r50k_base', training: { source: 'pythonInterop.test' } } }));

    const app = await appEnergies(cfg, arrays, dataset);
    const py = pythonEnergies(python, weights, dataPath);
    const worst = maxDiff(app, py);
    console.log(`app → python: ${app.size} energies, max |ΔE| = ${worst.toExponential(2)}`);
    expect(worst).toBeLessThanOrEqual(TOL);
    expect(evaluateGroups(scored(dataset, py)).btLoss).toBeCloseTo(evaluateGroups(scored(dataset, app)).btLoss, 5);
  });

  it("a checkpoint trained by `python -m eorm.train` imports into the app with Python's energies", async () => {
    if (!python) throw new Error(`No Python with torch. ${INSTALL}`);
    const out = join(dir, 'run');
    runPython(python, [
      '-m',
      'eorm.train',
      '--data',
      dataPath,
      '--out',
      out,
      '--preset',
      'tiny',
      '--d-model',
      '16',
      '--n-heads',
      '2',
      '--max-len',
      '48',
      '--epochs',
      '1',
      '--lr',
      '1e-2',
      '--max-steps',
      '4',
      '--curve-subsets',
      '0',
      '--quiet',
    ]);
    const weights = join(out, 'model.safetensors');
    const loaded = readModel(new Uint8Array(readFileSync(weights)));
    expect(loaded.configSource).toBe('eorm_config');
    expect(loaded.warnings).toEqual([]);
    expect(loaded.cfg).toMatchObject({ dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 64, maxLen: 48, vocabSize: GPT2_VOCAB, clsId: GPT2_EOT, positional: 'none' });
    expect(loaded.training).toMatchObject({ source: 'eorm python', step: 4 });

    const app = await appEnergies(loaded.cfg, loaded.tensors, dataset);
    const py = pythonEnergies(python, weights, dataPath);
    const worst = maxDiff(app, py);
    console.log(`python → app: ${app.size} energies, max |ΔE| = ${worst.toExponential(2)}`);
    expect(worst).toBeLessThanOrEqual(TOL);
  });
});
