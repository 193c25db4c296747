import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inProcessPool } from '../engine/data/tokenizePool.ts';
import { fixtureDir } from '../engine/testing/fixtureDir.ts';
import { writeModel } from '../engine/io/modelFile.ts';
import { makeConfig, paramShapes } from '../engine/model/config.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../engine/train/settings.ts';
import type { Command, WorkerEvent } from './protocol.ts';
import { Session } from './session.ts';

// A very small model (the GPT-2 vocabulary stays: the session always uses it) on 12 sample questions.
const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  preset: 'custom',
  model: { dModel: 8, nHeads: 2, nLayers: 1, ffnDim: 16, dropout: 0.1, maxLen: 32, positional: 'none' },
  epochs: 2,
  lr: 1e-2,
  groupsPerStep: 2,
};
const sample = readFileSync('public/sample/gsm8k_gpt3_openai_4cand.jsonl', 'utf8').split('\n').slice(0, 48).join('\n');

function harness() {
  const events: WorkerEvent[] = [];
  const session = new Session((e) => events.push(e), () => inProcessPool(), () => null);
  const run = async (cmd: Command) => session.handle(cmd);
  const last = <T extends WorkerEvent['type']>(type: T) => events.filter((e) => e.type === type).pop() as Extract<WorkerEvent, { type: T }> | undefined;
  /** Resolves with the run's end: its `complete` event, or throws with the error that ended it. */
  const runEnd = async () => {
    for (;;) {
      const end = events.find((e) => e.type === 'complete' || (e.type === 'error' && e.command === 'start'));
      if (end?.type === 'complete') return end;
      if (end?.type === 'error') throw new Error(end.message);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { events, run, last, runEnd };
}

const file = (text: string, name = 'data.jsonl') => ({ kind: 'file' as const, file: new File([text], name) });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Session (the engine worker behind the protocol)', () => {
  it('loads, refreshes the summary when maxLen moves, trains, inspects, reranks, exports and imports', async () => {
    const h = harness();
    await expect(h.run({ type: 'start', settings })).rejects.toThrow(/Load a dataset first/);
    await expect(h.run({ type: 'rerank', question: 'q', candidates: 'a' })).rejects.toThrow(/No latest model/);

    await h.run({ type: 'estimate', settings });
    await h.run({ type: 'loadData', role: 'train', source: file(sample) });
    const loaded = h.last('dataset')!;
    expect(loaded.reason).toBe('loaded');
    expect(loaded.summary.stats.groups).toBe(12);
    expect(loaded.summary.tokens.maxLen).toBe(32);
    await h.run({ type: 'estimate', settings: { ...settings, model: { ...settings.model, maxLen: 48 } } });
    expect(h.last('dataset')).toMatchObject({ reason: 'refreshed', summary: { tokens: { maxLen: 48 } } });
    // Starting with maxLen 32 again re-summarises too (even when no estimate came in between).
    await h.run({ type: 'start', settings });
    expect(h.last('dataset')).toMatchObject({ reason: 'refreshed', summary: { tokens: { maxLen: 32 } } });
    await expect(h.run({ type: 'loadData', role: 'train', source: file(sample) })).rejects.toThrow(/Stop the training run/);
    expect(await h.runEnd()).toMatchObject({ reason: 'finished' });
    const evals = h.events.filter((e) => e.type === 'evaluation');
    expect(evals.map((e) => e.type === 'evaluation' && [e.report.epoch, e.report.origin])).toEqual([
      [0, 'run'],
      [1, 'run'],
      [2, 'run'],
    ]);
    expect(h.last('models')!.available.map((m) => m.slot).sort()).toEqual(['best', 'latest']);

    await h.run({ type: 'inspect', set: 'val', filter: 'all', position: 0 });
    const group = h.last('inspectGroup')!;
    const energies = group.candidates.map((c) => c.energy);
    expect(energies).toEqual([...energies].sort((a, b) => a - b));
    expect(group.candidates.map((c) => c.index).sort()).toEqual([0, 1, 2, 3]);

    // 'top choice wrong' lists exactly the validation groups Best-of-N gets wrong.
    const lastVal = evals[2].type === 'evaluation' ? evals[2].report.summary : null;
    await h.run({ type: 'inspect', set: 'val', filter: 'top-wrong', position: 0 });
    const wrong = h.last('inspectGroup')!;
    expect(wrong.matching).toBe(Math.round(lastVal!.nGroups * (1 - lastVal!.bestOfN)));

    // A separate test file is evaluated on all of its groups, single-label ones included. Every label is
    // wrong in this one, so whatever the energies, 'top choice wrong' must list every group.
    const testLines = readFileSync('public/sample/gsm8k_gpt3_openai_4cand.jsonl', 'utf8').split('\n').slice(400, 440);
    const allWrong = testLines.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), label: 0 })).join('\n');
    await h.run({ type: 'loadData', role: 'test', source: file(allWrong, 'test.jsonl') });
    await h.run({ type: 'evaluate', set: 'test' });
    expect(h.last('evaluation')!.report).toMatchObject({ set: 'test', origin: 'request', modelSlot: 'latest', summary: { nGroups: 10, nCandidates: 40, bestOfN: 0 } });
    await h.run({ type: 'inspect', set: 'test', filter: 'top-wrong', position: 0 });
    const testWrong = h.last('inspectGroup')!;
    expect(testWrong.matching).toBe(10);
    expect(testWrong.candidates[0].label).toBe(0);

    const pasted = 'Nine eggs at $2 is $18.\n---\nThe answer is 26.\n---\n{"gen_text": "not JSONL: this is plain text"}';
    await h.run({ type: 'rerank', question: 'How much does Janet make?', candidates: pasted });
    const before = h.last('reranked')!.candidates;
    expect(before).toHaveLength(3);
    await h.run({ type: 'export' });
    const exported = h.last('exported')!;

    // A fresh session (as after a page reload) imports the file: same energies.
    const h2 = harness();
    await h2.run({ type: 'import', bytes: exported.bytes, fileName: exported.fileName });
    expect(h2.last('models')).toMatchObject({ active: 'imported' });
    await h2.run({ type: 'rerank', question: 'How much does Janet make?', candidates: pasted });
    const after = h2.last('reranked')!.candidates;
    for (const c of before) expect(after.find((a) => a.index === c.index)!.energy).toBeCloseTo(c.energy, 6);

    // And it can be trained further: 'continue' starts from the imported weights.
    await h2.run({ type: 'loadData', role: 'train', source: file(sample) });
    await h2.run({ type: 'start', settings: { ...settings, epochs: 1, init: 'continue' } });
    await h2.runEnd();
    expect(h2.last('log')!.message).toMatch(/Continuing from the imported model/);
    const first = h2.events.find((e) => e.type === 'evaluation');
    expect(first && first.type === 'evaluation' && first.report.summary.btLoss).toBeCloseTo(
      evals[2].type === 'evaluation' ? evals[2].report.summary.btLoss : NaN,
      5,
    );
  });

  it('imports the PyTorch-converted fixture weights and reranks a fixture group to the reference energies', async () => {
    const h = harness();
    const dir = fixtureDir();
    const bytes = readFileSync(join(dir, 'weights.safetensors'));
    const fixtureCase = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as { groups: Array<{ question: string; gen_texts: string[]; energies: number[] }> };
    await h.run({ type: 'import', bytes: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), fileName: 'weights.safetensors' });
    expect(h.last('models')).toMatchObject({ active: 'imported', available: [{ slot: 'imported', source: 'imported' }] });
    for (const g of fixtureCase.groups) {
      // Pasted as JSONL so texts with blank lines or "---" stay whole.
      await h.run({ type: 'rerank', question: g.question, candidates: g.gen_texts.map((t) => JSON.stringify({ gen_text: t })).join('\n') });
      for (const c of h.last('reranked')!.candidates) expect(Math.abs(c.energy - g.energies[c.index])).toBeLessThan(1e-6);
    }
  });

  it('refuses a model whose vocabulary is not GPT-2 BPE, loading nothing', async () => {
    const h = harness();
    const cfg = makeConfig({ vocabSize: 100, dModel: 8, nHeads: 2, nLayers: 1, maxLen: 16, clsId: 99, sepId: 99, padId: 99 });
    const tensors = new Map(paramShapes(cfg).map(([name, shape]) => [name, new Float32Array(shape.reduce((a, b) => a * b, 1))]));
    const bytes = writeModel({ cfg, tensors });
    await expect(h.run({ type: 'import', bytes: bytes.buffer, fileName: 'small-vocab.safetensors' })).rejects.toThrow(/vocabulary of 100 tokens.*Nothing was loaded/);
    expect(h.last('models')).toBeUndefined();
  });

  it('keeps the loaded data when a file has no valid line, and says which line failed first', async () => {
    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(sample) });
    await expect(h.run({ type: 'loadData', role: 'train', source: file('{"question": 1}\nnope\n', 'bad.jsonl') })).rejects.toThrow(
      /bad\.jsonl: No valid line.*line 1, field "question".*previously loaded data is kept/,
    );
    await h.run({ type: 'downloadErrors', role: 'train', format: 'csv' });
    expect(h.last('errorList')!.fileName).toBe('data.rejected.csv');
  });
});
