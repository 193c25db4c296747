import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureDir } from '../engine/testing/fixtureDir.ts';
import { writeModel } from '../engine/io/modelFile.ts';
import { makeConfig, paramShapes } from '../engine/model/config.ts';
import { encodeOrdinary } from '../engine/data/tokenize/tokenize.ts';
import { readModel } from '../engine/io/modelFile.ts';
import { disposeParams, paramsFromArrays } from '../engine/model/params.ts';
import { scoreCandidates } from '../engine/score/scoring.ts';
import { file, harness, modelFile, sampleLines, tinySettings } from './testing/sessionHarness.ts';
import { activeProfile } from '../engine/backend/profile.ts';

// A very small model (the GPT-2 vocabulary stays: the session always uses it) on 12 sample questions.
const settings = tinySettings({ epochs: 2, groupsPerStep: 2 });
const sample = sampleLines(0, 48);

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
    expect(
      h
        .last('models')!
        .available.map((m) => m.slot)
        .sort(),
    ).toEqual(['best', 'latest']);

    await h.run({ type: 'inspect', set: 'val', filter: 'all', position: 0 });
    const group = h.last('inspectGroup')!;
    const energies = group.candidates.map((c) => c.energy);
    expect(energies).toEqual([...energies].sort((a, b) => a - b));
    expect(group.candidates.map((c) => c.index).sort()).toEqual([0, 1, 2, 3]);

    // 'top choice wrong' lists exactly the validation groups with a wrong candidate among the lowest
    // energies, counted here from every group Inspect shows.
    const nVal = h.last('dataset')!.summary.split!.val;
    let expectedWrong = 0;
    for (let p = 0; p < nVal; p++) {
      await h.run({ type: 'inspect', set: 'val', filter: 'all', position: p });
      const shown = h.last('inspectGroup')!;
      expect(shown.position).toBe(p);
      const best = Math.min(...shown.candidates.map((c) => c.energy));
      if (shown.candidates.some((c) => c.energy === best && c.label === 0)) expectedWrong++;
    }
    await h.run({ type: 'inspect', set: 'val', filter: 'top-wrong', position: 0 });
    const wrong = h.last('inspectGroup')!;
    expect(wrong.matching).toBe(expectedWrong);

    // A separate test file is evaluated on all of its groups, single-label ones included. Every label is
    // wrong in this one, so whatever the energies, 'top choice wrong' must list every group.
    const testLines = readFileSync('public/sample/gsm8k_gpt3_openai_4cand.jsonl', 'utf8').split('\n').slice(400, 440);
    const allWrong = testLines.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), label: 0 })).join('\n');
    await h.run({ type: 'loadData', role: 'test', source: file(allWrong, 'test.jsonl') });
    await h.run({ type: 'evaluate', set: 'test' });
    expect(h.last('evaluation')!.report).toMatchObject({
      set: 'test',
      origin: 'request',
      modelSlot: 'latest',
      summary: { nGroups: 10, nCandidates: 40, bestOfN: 0 },
    });
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
    expect(h2.events.some((e) => e.type === 'log' && /Continuing from the imported model/.test(e.message))).toBe(true);
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
    const fixtureCase = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as {
      groups: Array<{ question: string; gen_texts: string[]; energies: number[] }>;
    };
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
    await expect(h.run({ type: 'import', bytes: bytes.buffer, fileName: 'small-vocab.safetensors' })).rejects.toThrow(
      /vocabulary of 100 tokens.*Nothing was loaded/,
    );
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

  it("lists a group under 'top choice wrong' when a wrong candidate ties at the lowest energy", async () => {
    const h = harness();
    // Every weight 0: every energy is 0, so each group's pick is a tie among all of its candidates.
    await h.run({ type: 'import', bytes: await modelFile('zeros'), fileName: 'zeros.safetensors' });
    const lines = readFileSync('public/sample/gsm8k_gpt3_openai_4cand.jsonl', 'utf8').split('\n').slice(400, 440);
    await h.run({ type: 'loadData', role: 'test', source: file(lines.join('\n'), 'test.jsonl') });
    const labels = new Map<string, number[]>();
    for (const l of lines) {
      const r = JSON.parse(l) as { question_id: string; label: number };
      labels.set(r.question_id, [...(labels.get(r.question_id) ?? []), r.label]);
    }
    const anyWrong = [...labels.values()].filter((g) => g.includes(0)).length;
    // Otherwise "the first of the tied candidates" would give the same count.
    expect(anyWrong).toBeGreaterThan([...labels.values()].filter((g) => g[0] === 0).length);
    await h.run({ type: 'inspect', set: 'test', filter: 'top-wrong', position: 0 });
    expect(h.last('inspectGroup')!.matching).toBe(anyWrong);
  });

  it('reranks without a question: the model reads [CLS] [SEP] answer, as the reference does', async () => {
    const h = harness();
    const bytes = readFileSync(join(fixtureDir(), 'weights.safetensors'));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await h.run({ type: 'import', bytes: buffer, fileName: 'weights.safetensors' });
    const texts = ['Nine eggs at $2 is $18.', 'The answer is 26.'];
    await h.run({ type: 'rerank', question: '', candidates: texts.join('\n---\n') });
    const ranked = h.last('reranked')!;
    expect(ranked.question).toBe('');
    const { cfg, tensors } = readModel(buffer, { copy: true });
    const params = paramsFromArrays(cfg, tensors);
    const ids = texts.map((t) => [cfg.clsId, cfg.sepId, ...encodeOrdinary(t)]);
    const expected = await scoreCandidates(cfg, params, ids, { profile: activeProfile() });
    disposeParams(params);
    for (const c of ranked.candidates) {
      expect(c.tokens).toBe(ids[c.index].length);
      expect(Math.abs(c.energy - expected[c.index])).toBeLessThan(1e-6);
    }
  });

  it('marks a pasted candidate as cut only when its input is longer than maxLen', async () => {
    const h = harness();
    await h.run({ type: 'import', bytes: await modelFile(1, 16), fileName: 'len16.safetensors' });
    const question = 'Why?';
    const room = 16 - 2 - encodeOrdinary(question).length;
    const fits = Array.from({ length: room }, () => 'x').join(' ');
    expect(encodeOrdinary(fits)).toHaveLength(room);
    await h.run({ type: 'rerank', question, candidates: `${fits}\n---\n${fits} x` });
    const byIndex = [...h.last('reranked')!.candidates].sort((a, b) => a.index - b.index);
    expect(byIndex.map((c) => [c.tokens, c.truncated])).toEqual([
      [16, false],
      [16, true],
    ]);
  });
});
