/**
 * The split a model was trained with travels with it (see the split contract in docs/design.md): every
 * exported file and stored run records `split: {seed, trainFraction, dataset, kind}`; continuing from a model
 * honours its split when it was trained on the loaded file (a record without `kind` is 'mixed'; new runs split 'all'), and says in plain words when
 * that cannot be checked or cannot apply. python/ writes and reads the same field.
 */
import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SplitKind, splitGroups } from '../engine/data/split.ts';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { readModel } from '../engine/io/modelFile.ts';
import { loadData } from './data/dataLoader.ts';
import { type Harness, file, harness, inspectedValGroups, modelFile, sampleLines, tinySettings } from './testing/sessionHarness.ts';
import { StudioDb } from './storage/db.ts';
import { Persister } from './storage/persister.ts';

const settings = tinySettings({ epochs: 1, groupsPerStep: 8 });
// 50 groups, 27 of them with both labels: 0.8 keeps 5 for validation, 0.9 keeps 3.
const text = sampleLines(0, 200);
const other = sampleLines(200, 400);

async function sha256(s: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The validation groups of `s` split with seed and fraction, computed apart from any session. */
async function expectedVal(s: string, seed: number, trainFraction: number, kind: SplitKind = 'mixed'): Promise<number[]> {
  const d = await loadData('train', file(s), inProcessPool(), 0, () => undefined);
  return [...splitGroups(d.view, { seed, trainFraction, kind }).val].sort((a, b) => a - b);
}

let dbs = 0;
const storage = (name = `split-test-${++dbs}`) => ({ name, persist: new Persister(StudioDb.open(name), () => undefined) });

const warnings = (h: Harness) =>
  h
    .all('log')
    .filter((e) => e.level === 'warn')
    .map((e) => e.message);

async function waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let t = 0; !(await done()); t += 20) {
    if (t > 10_000) throw new Error(`Still waiting for ${what} after 10 s.`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

async function exportedTraining(h: Harness): Promise<Record<string, unknown>> {
  await h.run({ type: 'export' });
  // The weights: a model card follows them.
  return readModel(
    h
      .all('exported')
      .filter((e) => e.what !== 'card')
      .at(-1)!.bytes,
  ).training!;
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Session: the split travels with the model', () => {
  it('continuing a model trained on this file with seed 7 at 0.9 validates on exactly that split, and its export and stored run record it', async () => {
    const hash = await sha256(text);
    const want = await expectedVal(text, 7, 0.9);
    // Otherwise the test could not tell a fraction that was honoured from one that was not.
    expect(want).not.toEqual(await expectedVal(text, 7, 0.8));
    const { name, persist } = storage();
    const h = harness(undefined, persist);
    const training = { source: 'eorm python', settings: { seed: 7, train_fraction: 0.9 }, split: { seed: 7, trainFraction: 0.9, dataset: hash } };
    await h.run({ type: 'import', bytes: await modelFile(1, 32, training), fileName: 'python.safetensors' });
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'start', settings: { ...settings, seed: 42, init: 'continue' } });
    await h.runEnd();
    expect(h.last('dataset')!.summary.split).toMatchObject({ seed: 7, val: want.length });
    expect(await inspectedValGroups(h)).toEqual(want);
    expect(warnings(h)).toEqual([]);
    expect(h.all('log').some((e) => /Keeping the imported model's split \(seed 7, 90% of the groups for training\)/.test(e.message))).toBe(true);

    // Exported: the whole split, and splitSeed for older readers.
    const exported = await exportedTraining(h);
    // Recorded without a kind by the model: 'mixed', and now written out.
    expect(exported.split).toEqual({ seed: 7, trainFraction: 0.9, dataset: hash, kind: 'mixed' });
    expect(exported.splitSeed).toBe(7);

    // Stored with the run, and honoured by Resume in a fresh session (as after a reload).
    const db = (await StudioDb.open(name))!;
    const runId = h.last('runs')!.runs[0].id;
    await waitFor(async () => {
      const r = await db.getRun(runId);
      return r !== undefined && r.checkpointStep > 0 && r.state === 'done' && (await db.getCheckpoint(runId)) !== undefined;
    }, 'the finished run and its last checkpoint in storage');
    expect((await db.getRun(runId))!.split).toEqual({ seed: 7, trainFraction: 0.9, dataset: hash, kind: 'mixed' });
    const h2 = harness(undefined, storage(name).persist);
    await h2.run({ type: 'resumeRun', runId });
    await h2.runEnd();
    expect(h2.last('dataset')!.summary.split).toMatchObject({ seed: 7, val: want.length });
    expect(await inspectedValGroups(h2)).toEqual(want);
  });

  it("honours an older Python file's settings (seed and train_fraction) and says the file it was trained on could not be checked", async () => {
    const want = await expectedVal(text, 7, 0.9);
    const h = harness(undefined, storage().persist);
    const training = { source: 'eorm python', dataset: 'data.jsonl', settings: { seed: 7, train_fraction: 0.9 } };
    await h.run({ type: 'import', bytes: await modelFile(1, 32, training), fileName: 'old.safetensors' });
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'start', settings: { ...settings, seed: 42, init: 'continue' } });
    await h.runEnd();
    expect(await inspectedValGroups(h)).toEqual(want);
    expect(warnings(h)).toEqual([
      expect.stringMatching(
        /old\.safetensors does not record which file it was trained on.*kept its split \(seed 7, 90% of the groups for training\).*not comparable/,
      ),
    ]);
  });

  it('warns in plain words, and splits with the run’s own seed, when the model was trained on another file', async () => {
    const otherHash = await sha256(other);
    const want = await expectedVal(text, 42, 0.8, 'all'); // the run's own split: the form's kind
    const h = harness(undefined, storage().persist);
    const training = { splitSeed: 7, split: { seed: 7, trainFraction: 0.9, dataset: otherHash } };
    await h.run({ type: 'import', bytes: await modelFile(1, 32, training), fileName: 'model.safetensors' });
    await h.run({ type: 'loadData', role: 'train', source: file(text, 'train.jsonl') });
    await h.run({ type: 'start', settings: { ...settings, seed: 42, init: 'continue' } });
    await h.runEnd();
    expect(warnings(h)).toEqual([
      `model.safetensors was trained on another file (${otherHash.slice(0, 15)}…): its split does not apply to train.jsonl, so validation may hold groups it trained on — figures are not comparable. This run uses its own split (seed 42, 80% of the groups for training).`,
    ]);
    expect(h.last('dataset')!.summary.split).toMatchObject({ seed: 42, val: want.length });
    expect(await inspectedValGroups(h)).toEqual(want);
    expect((await exportedTraining(h)).split).toEqual({ seed: 42, trainFraction: 0.8, dataset: await sha256(text), kind: 'all' });
  });

  it("continuing the latest model keeps its split whatever the form's seed; a model that records none gets a warning", async () => {
    const h = harness(undefined, storage().persist);
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'start', settings: { ...settings, seed: 42 } });
    await h.runEnd();
    const trainedSplit = h.last('dataset')!.summary.split;
    expect(trainedSplit!.seed).toBe(42);
    await h.run({ type: 'start', settings: { ...settings, seed: 7, init: 'continue' } });
    expect(h.last('dataset')!.summary.split).toEqual(trainedSplit);
    expect(
      h
        .all('log')
        .some((e) =>
          /Keeping the latest model's split \(seed 42, 80% of all questions for training \(validation holds every kind\)\): it was trained on this file/.test(
            e.message,
          ),
        ),
    ).toBe(true);
    expect(warnings(h)).toEqual([]);
    await h.run({ type: 'stop' });
    await h.runEnd(2);

    const h2 = harness(undefined, storage().persist);
    await h2.run({ type: 'import', bytes: await modelFile(1), fileName: 'bare.safetensors' });
    await h2.run({ type: 'loadData', role: 'train', source: file(text) });
    await h2.run({ type: 'start', settings: { ...settings, init: 'continue' } });
    expect(warnings(h2)).toEqual([expect.stringMatching(/^bare\.safetensors does not record the split it was trained with/)]);
    await h2.runEnd();
  });

  it('a fresh run records its split in the exported file', async () => {
    const h = harness(undefined, storage().persist);
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'start', settings: { ...settings, seed: 5 } });
    await h.runEnd();
    const exported = await exportedTraining(h);
    expect(exported.split).toEqual({ seed: 5, trainFraction: 0.8, dataset: await sha256(text), kind: 'all' });
    expect(exported.splitSeed).toBe(5);
  });
});
