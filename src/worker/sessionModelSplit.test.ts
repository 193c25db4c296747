/**
 * Evaluate and Inspect read the split the selected model records (issue 31, point 1): a model trained on
 * the loaded file with seed 7 is validated on its own held-out questions whatever the form's seed, and a
 * model whose split cannot be known is validated on the settings' split with the report saying so.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SplitKind, splitGroups } from '../engine/data/split.ts';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { loadData } from './data/dataLoader.ts';
import { file, harness, inspectedValGroups, modelFile, sampleLines } from './testing/sessionHarness.ts';

// 50 groups, 27 of them with both labels.
const text = sampleLines(0, 200);
const other = sampleLines(200, 400);

async function sha256(s: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Training and validation groups of `s` split so, computed apart from any session. */
async function splitOf(s: string, seed: number, kind: SplitKind): Promise<{ train: number[]; val: number[] }> {
  const d = await loadData('train', file(s), inProcessPool(), 0, () => undefined);
  const split = splitGroups(d.view, { seed, trainFraction: 0.8, kind });
  return { train: [...split.train].sort((a, b) => a - b), val: [...split.val].sort((a, b) => a - b) };
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Evaluate and Inspect use the split the model records', () => {
  it('a model trained on this file with seed 7, the form at seed 42: the evaluated groups are the model’s validation groups, none of its training groups', async () => {
    const hash = await sha256(text);
    const model = await splitOf(text, 7, 'mixed');
    const form = await splitOf(text, 42, 'all');
    // Otherwise the test could not tell the model's split from the form's.
    expect(form.val.some((g) => model.train.includes(g))).toBe(true);
    const h = harness();
    const training = { source: 'eorm python', settings: { seed: 7 }, split: { seed: 7, trainFraction: 0.8, dataset: hash, kind: 'mixed' } };
    await h.run({ type: 'import', bytes: await modelFile(1, 32, training), fileName: 'seed7.safetensors' });
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    expect(h.last('dataset')!.summary.split).toMatchObject({ seed: 42 });
    await h.run({ type: 'evaluate', set: 'val' });
    const report = h.last('evaluation')!.report;
    expect(await inspectedValGroups(h)).toEqual(model.val);
    expect(report.summary.nGroups).toBe(model.val.length);
    expect(report.heldOut).toMatchObject({ source: 'model', chosenOnValidation: false });
    expect(report.heldOut!.sentence).toMatch(/seed 7, 80% of the groups for training/);
    // The bootstrap is seeded as the model's own validations were: by the seed it records.
    expect(report.selection!.bootstrap.seed).toBe(7);
    // The form's split is left as it was: Evaluate reads the model's split, it does not install it.
    expect(h.last('dataset')!.summary.split).toMatchObject({ seed: 42 });
  });

  it('a model trained on another file, or recording no split: the settings’ split, labelled "may include training questions"', async () => {
    const form = await splitOf(text, 42, 'all');
    for (const [training, why] of [
      [{ split: { seed: 7, trainFraction: 0.8, dataset: await sha256(other) } }, /trained on another file \(sha256:[0-9a-f]{8}…\)/],
      [undefined, /does not record the split it was trained with/],
      [{ split: { seed: 'seven', trainFraction: 0.8 } }, /records a split that cannot be read \(split\.seed is "seven", not an integer\)/],
    ] as const) {
      const h = harness();
      await h.run({ type: 'import', bytes: await modelFile(1, 32, training), fileName: 'm.safetensors' });
      await h.run({ type: 'loadData', role: 'train', source: file(text) });
      await h.run({ type: 'evaluate', set: 'val' });
      const report = h.last('evaluation')!.report;
      expect(await inspectedValGroups(h)).toEqual(form.val);
      expect(report.heldOut!.source).toBe('settings');
      expect(report.heldOut!.sentence).toMatch(why);
      expect(report.heldOut!.sentence).toMatch(/may include training questions/);
    }
  });

  it('a model that records its split but not its file: that split, labelled as unchecked', async () => {
    const model = await splitOf(text, 7, 'mixed');
    const h = harness();
    await h.run({ type: 'import', bytes: await modelFile(1, 32, { settings: { seed: 7 } }), fileName: 'old.safetensors' });
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'evaluate', set: 'val' });
    const report = h.last('evaluation')!.report;
    expect(await inspectedValGroups(h)).toEqual(model.val);
    expect(report.heldOut!.source).toBe('model-unchecked');
    expect(report.heldOut!.sentence).toMatch(/does not record which file it was trained on.*may include training questions/);
  });

  it('a best checkpoint’s validation figures are labelled optimistic: that validation chose it', async () => {
    const hash = await sha256(text);
    const h = harness();
    const training = { slot: 'best', settings: { seed: 7 }, split: { seed: 7, trainFraction: 0.8, dataset: hash, kind: 'mixed' } };
    await h.run({ type: 'import', bytes: await modelFile(1, 32, training), fileName: 'best.safetensors' });
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'evaluate', set: 'val' });
    const report = h.last('evaluation')!.report;
    expect(report.heldOut).toMatchObject({ source: 'model', chosenOnValidation: true });
    expect(report.heldOut!.sentence).toMatch(/optimistic/);
  });
});
