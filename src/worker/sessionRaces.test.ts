import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeOrdinary } from '../engine/data/tokenize/tokenize.ts';
import { readModel } from '../engine/io/modelFile.ts';
import { EMBEDDING } from '../engine/model/adamw.ts';
import { disposeParams, initParams, paramsToArrays } from '../engine/model/params.ts';
import { cosineWithWarmup } from '../engine/model/schedule.ts';
import type { TrainSettings } from '../engine/train/settings.ts';
import type { WorkerEvent } from './protocols/events.ts';
import { file, harness, modelFile, sampleLines, tinySettings } from './testing/sessionHarness.ts';
import { activeProfile } from '../engine/backend/profile.ts';

// Commands that overlap: each test catches one command mid-way with another, the way a user can.

const settings = tinySettings({ epochs: 1, groupsPerStep: 2 });
const sampleA = sampleLines(0, 48);
const sampleB = sampleLines(48, 96);
/** 40 groups, 160 candidates: three scoring batches. */
const testA = sampleLines(400, 560);
/** 12 groups. */
const testB = sampleLines(600, 648);
const questionsOf = (text: string) => new Set(text.split('\n').map((l) => (JSON.parse(l) as { question: string }).question));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Holds every tensor read until opened: a slow GPU read on demand, so a command can be caught mid-way. */
function holdReads(): () => void {
  const read = tf.Tensor.prototype.data;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  vi.spyOn(tf.Tensor.prototype, 'data').mockImplementation(async function (this: tf.Tensor) {
    await gate;
    return read.call(this);
  } as typeof read);
  return open;
}

/** A file whose bytes arrive only once released: a load that finishes when the test says. */
function heldFile(text: string, name: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const bytes = new TextEncoder().encode(text);
  const stream = new ReadableStream<Uint8Array>({
    async pull(c) {
      await held;
      c.enqueue(bytes);
      c.close();
    },
  });
  const f = { name, size: bytes.length, stream: () => stream } as unknown as File;
  return { source: { kind: 'file' as const, file: f }, release };
}

/** Lets every command already sent reach its first wait. */
const settle = () => new Promise((r) => setTimeout(r, 20));

const report = (events: WorkerEvent[]) => (events.filter((e) => e.type === 'evaluation').pop() as Extract<WorkerEvent, { type: 'evaluation' }>).report;

describe('Session: commands that overlap', () => {
  it('import during an evaluation: the old weights stay readable, and the answer is for the model now selected', async () => {
    const [m1, m2] = [await modelFile(1), await modelFile(2)];
    const h = harness();
    await h.run({ type: 'import', bytes: m1, fileName: 'm1.safetensors' });
    await h.run({ type: 'loadData', role: 'test', source: file(testA, 'test.jsonl') });
    const open = holdReads();
    const evaluating = h.run({ type: 'evaluate', set: 'test' });
    await settle();
    await h.run({ type: 'import', bytes: m2, fileName: 'm2.safetensors' });
    open();
    await evaluating;

    const ref = harness();
    await ref.run({ type: 'import', bytes: m2, fileName: 'm2.safetensors' });
    await ref.run({ type: 'loadData', role: 'test', source: file(testA, 'test.jsonl') });
    await ref.run({ type: 'evaluate', set: 'test' });
    expect(report(h.events).summary).toEqual(report(ref.events).summary);
  });

  it('a test file loaded during its evaluation: the answer and Inspect are both about the new file', async () => {
    const h = harness();
    await h.run({ type: 'import', bytes: await modelFile(1), fileName: 'm1.safetensors' });
    await h.run({ type: 'loadData', role: 'test', source: file(testA, 'a.jsonl') });
    const open = holdReads();
    const evaluating = h.run({ type: 'evaluate', set: 'test' });
    await settle();
    await h.run({ type: 'loadData', role: 'test', source: file(testB, 'b.jsonl') });
    open();
    await evaluating;
    expect(report(h.events).summary.nGroups).toBe(12);
    await h.run({ type: 'inspect', set: 'test', filter: 'all', position: 0 });
    const shown = h.last('inspectGroup')!;
    expect(questionsOf(testB).has(shown.question)).toBe(true);
    const texts = new Set(testB.split('\n').map((l) => (JSON.parse(l) as { gen_text: string }).gen_text));
    for (const c of shown.candidates) expect(texts.has(c.text)).toBe(true);
  });

  it('a training file that finishes loading after Start is refused: the run keeps its data', async () => {
    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(sampleA, 'a.jsonl') });
    const b = heldFile(sampleB, 'b.jsonl');
    const loading = h.run({ type: 'loadData', role: 'train', source: b.source });
    await h.run({ type: 'start', settings });
    b.release();
    await expect(loading).rejects.toThrow(/b\.jsonl finished loading after training started; the run keeps its data/);
    await h.runEnd();
    expect(h.all('dataset').map((d) => d.summary.name)).not.toContain('b.jsonl');
    await h.run({ type: 'inspect', set: 'val', filter: 'all', position: 0 });
    expect(questionsOf(sampleA).has(h.last('inspectGroup')!.question)).toBe(true);
  });

  it('two loads of one role: the last pick wins, even when the earlier one finishes later', async () => {
    const h = harness();
    const a = heldFile(sampleA, 'a.jsonl');
    const first = h.run({ type: 'loadData', role: 'train', source: a.source });
    await h.run({ type: 'loadData', role: 'train', source: file(sampleB, 'b.jsonl') });
    a.release();
    await first;
    expect(h.all('dataset').map((d) => d.summary.name)).toEqual(['b.jsonl']);
    expect(h.last('log')!.message).toMatch(/a\.jsonl finished loading after a newer file was picked; it was set aside/);
  });

  it('Start during an evaluation of the best checkpoint: no freed weights, the answer is for the new selection', async () => {
    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(sampleA) });
    await h.run({ type: 'loadData', role: 'test', source: file(testA, 'test.jsonl') });
    await h.run({ type: 'start', settings });
    await h.runEnd();
    await h.run({ type: 'selectModel', slot: 'best' });
    const open = holdReads();
    const evaluating = h.run({ type: 'evaluate', set: 'test' });
    await settle();
    await h.run({ type: 'start', settings });
    open();
    await evaluating;
    expect(report(h.events)).toMatchObject({ set: 'test', origin: 'request', modelSlot: 'latest' });
    await h.run({ type: 'stop' });
    await h.runEnd(2);
  });

  it('export during training: one step of the run, the lazy embedding brought up to that step', async () => {
    // 100 groups, one per step and no warmup: the first steps move every weight, and no epoch ends soon.
    const big = sampleLines(0, 400);
    const run: TrainSettings = { ...settings, groupsPerStep: 1, warmupRatio: 0 };
    // Paused as soon as the first step is done, before an epoch end brings the embedding up to date.
    const h = harness((e) => {
      if (e.type === 'trainState' && e.state === 'training') void h.run({ type: 'pause' });
    });
    await h.run({ type: 'loadData', role: 'train', source: file(big) });
    await h.run({ type: 'start', settings: run });
    await h.until((e) => e.type === 'trainState' && e.state === 'paused');
    await h.run({ type: 'export' });
    await h.run({ type: 'stop' });
    const end = await h.runEnd();

    const { cfg, tensors, training } = readModel(h.last('exported')!.bytes, { copy: true });
    const step = training!.step as number;
    expect(step).toBeGreaterThanOrEqual(1);
    expect(step).toBeLessThanOrEqual(end.steps);
    // Rows of tokens absent from the data only decay: by exactly the product over the steps taken.
    const totalSteps = h.last('trainState')!.totalSteps;
    let decay = 1;
    for (let k = 0; k < step; k++) decay *= 1 - cosineWithWarmup(k, run.lr, 0, totalSteps) * run.weightDecay;
    const init = initParams(cfg, run.seed);
    const start = (await paramsToArrays(init, activeProfile())).get(EMBEDDING)!;
    disposeParams(init);
    const used = new Set<number>();
    for (const l of big.split('\n')) {
      const r = JSON.parse(l) as { question: string; gen_text: string };
      for (const id of [...encodeOrdinary(r.question), ...encodeOrdinary(r.gen_text)]) used.add(id);
    }
    const emb = tensors.get(EMBEDDING)!;
    let worst = 0;
    for (let row = 0; row < cfg.vocabSize; row++) {
      if (used.has(row) || row === cfg.clsId) continue;
      for (let i = row * cfg.dModel; i < (row + 1) * cfg.dModel; i++) worst = Math.max(worst, Math.abs(emb[i] - start[i] * decay) / Math.abs(start[i]));
    }
    expect(decay).toBeLessThan(1 - 1e-5);
    expect(worst).toBeLessThan(1e-6);
  });
});
