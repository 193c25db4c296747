/**
 * The split contract across the two sides: a model file the app exports records `split` so that
 * python/ (eorm.split.recorded_split, which `eorm.train --init` uses) reads the same seed, fraction and
 * file identity, and python/'s split_groups cuts the same validation groups the app validated on.
 */
import * as tf from '@tensorflow/tfjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { splitGroups } from '../../engine/data/split.ts';
import { readRecordedSplit } from '../../engine/data/splitRecord.ts';
import { inProcessPool } from '../../engine/data/tokenize/tokenizePool.ts';
import { readModel } from '../../engine/io/modelFile.ts';
import { INSTALL_TORCH, PYTHON_DIR, findPython, runPython } from '../../engine/testing/pythonNode.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../../engine/train/settings.ts';
import { loadData } from './dataLoader.ts';
import { file, harness, modelFile, sampleLines } from '../testing/sessionHarness.ts';

const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  preset: 'custom',
  model: { dModel: 8, nHeads: 2, nLayers: 1, ffnDim: 16, dropout: 0.1, maxLen: 32, positional: 'none' },
  epochs: 1,
  groupsPerStep: 8,
};
const text = sampleLines(0, 200);

/** Runs python/'s reading of a training summary and its split of `labels`. */
function python(training: unknown, labels: number[][]): { recorded: unknown; val: number[] } {
  const code = [
    'import json, sys',
    'from eorm.split import recorded_split, split_groups',
    'q = json.load(sys.stdin)',
    'rec = recorded_split(q["training"])',
    'print(json.dumps({"recorded": rec, "val": split_groups(q["labels"], rec["seed"], rec["trainFraction"], rec["kind"])[1]}))',
  ].join('\n');
  const { python: py, tried } = findPython();
  if (!py) throw new Error(`No Python with torch for the split contract (${tried.join('; ')}). ${INSTALL_TORCH}`);
  const out = execFileSync(py, ['-c', code], { cwd: PYTHON_DIR, input: JSON.stringify({ training, labels }), encoding: 'utf8' });
  return JSON.parse(out) as { recorded: unknown; val: number[] };
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

it('python/ reads the split an app model file records, and splits the file into the same validation groups', async () => {
  const loaded = await loadData('train', file(text), inProcessPool(), 0, () => undefined);
  const h = harness();
  const split = { seed: 7, trainFraction: 0.9, dataset: loaded.contentHash };
  await h.run({ type: 'import', bytes: await modelFile(1, 32, { split }), fileName: 'from-python.safetensors' });
  await h.run({ type: 'loadData', role: 'train', source: file(text) });
  await h.run({ type: 'start', settings: { ...settings, seed: 42, init: 'continue' } });
  await h.runEnd();
  await h.run({ type: 'export' });
  // The weights: a model card follows them.
  const training = readModel(
    h
      .all('exported')
      .filter((e) => e.what !== 'card')
      .at(-1)!.bytes,
  ).training!;

  const labels = loaded.dataset.groups.map((g) => g.candidates.map((c) => c.label));
  const py = python(training, labels);
  // Recorded without a kind (made before kinds): 'mixed' on both sides, and written out so.
  expect(py.recorded).toEqual({ ...split, kind: 'mixed' });
  expect(readRecordedSplit(training).split).toEqual({ ...split, kind: 'mixed' });
  expect(py.val).toEqual([...splitGroups(loaded.view, { ...split, kind: 'mixed' }).val]);
});

it('Evaluate in the app and `eorm.score --groups val` score the same groups of the same file and weights, with the same figures', async () => {
  const { python: py, tried } = findPython();
  if (!py) throw new Error(`No Python with torch for the split contract (${tried.join('; ')}). ${INSTALL_TORCH}`);
  const loaded = await loadData('train', file(text), inProcessPool(), 0, () => undefined);
  // Trained with seed 7 on this file; the form stays at seed 42.
  const training = { source: 'eorm python', settings: { seed: 7 }, split: { seed: 7, trainFraction: 0.8, dataset: loaded.contentHash, kind: 'mixed' } };
  const weights = await modelFile(1, 32, training);
  const h = harness();
  await h.run({ type: 'import', bytes: weights, fileName: 'seed7.safetensors' });
  await h.run({ type: 'loadData', role: 'train', source: file(text) });
  await h.run({ type: 'evaluate', set: 'val' });
  const report = h.last('evaluation')!.report;
  const appGroups: number[] = [];
  for (let p = 0; p < report.summary.nGroups; p++) {
    await h.run({ type: 'inspect', set: 'val', filter: 'all', position: p });
    appGroups.push(h.last('inspectGroup')!.groupIndex);
  }

  const dir = mkdtempSync(join(tmpdir(), 'eorm-split-score-'));
  try {
    writeFileSync(join(dir, 'data.jsonl'), text);
    writeFileSync(join(dir, 'seed7.safetensors'), new Uint8Array(weights));
    const out = runPython(py, ['-m', 'eorm.score', '--weights', join(dir, 'seed7.safetensors'), '--data', join(dir, 'data.jsonl'), '--groups', 'val'], {
      OMP_NUM_THREADS: '1',
    });
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { group?: number; metrics?: { bestOfN: number; nGroups: number }; selection?: { bootstrap: { seed: number } } });
    const last = lines.at(-1)!;
    const pyGroups = [...new Set(lines.flatMap((r) => (r.group === undefined ? [] : [r.group])))];
    expect(appGroups.sort((a, b) => a - b)).toEqual(pyGroups.sort((a, b) => a - b));
    expect(appGroups).toEqual([...splitGroups(loaded.view, { seed: 7, trainFraction: 0.8, kind: 'mixed' }).val].sort((a, b) => a - b));
    expect(last.metrics!.nGroups).toBe(report.summary.nGroups);
    expect(last.metrics!.bestOfN).toBe(report.summary.bestOfN);
    expect(last.selection!.bootstrap.seed).toBe(report.selection!.bootstrap.seed);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
