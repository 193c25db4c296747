import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PicksRecord } from '../../engine/score/picksRecord.ts';
import { file, harness, modelFile, sampleLines } from '../testing/sessionHarness.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Pick answers in the worker', () => {
  it('plain errors without data, for a rule that needs a model it lacks, and with no run to control or download', async () => {
    const h = harness();
    await expect(h.run({ type: 'picks', set: 'train', rule: 'recommended' })).rejects.toThrow(/Load a dataset first/);
    await h.run({ type: 'loadData', role: 'train', source: file(sampleLines(0, 12)) });
    await expect(h.run({ type: 'picks', set: 'train', rule: 'bestOfN' })).rejects.toThrow(/needs a model/);
    await expect(h.run({ type: 'picksControl', action: 'pause' })).rejects.toThrow(/No picks run/);
    await expect(h.run({ type: 'picksDownload' })).rejects.toThrow(/No picks yet/);
    await h.run({ type: 'import', bytes: await modelFile(3), fileName: 'tiny.safetensors' });
    await expect(h.run({ type: 'picks', set: 'train', rule: 'selector' })).rejects.toThrow(/selector was not fitted/);
  });

  it('without a model the recommended rule is the generator vote learnt without labels (the sample names four generators)', async () => {
    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(sampleLines(0, 48), 'sample.jsonl') });
    await h.run({ type: 'picks', set: 'train', rule: 'recommended' });
    const end = h.all('picksProgress').at(-1);
    expect(end).toMatchObject({ state: 'done', done: 12, total: 12, modelSlot: null, rule: 'generatorVoteFree' });
  });

  it('picks every question of a labelled file with the imported model: progress to done, accuracy, picks.jsonl', async () => {
    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(sampleLines(0, 48), 'sample.jsonl') });
    await h.run({ type: 'import', bytes: await modelFile(3), fileName: 'tiny.safetensors' });
    await h.run({ type: 'picks', set: 'train', rule: 'majority' });
    const progress = h.all('picksProgress');
    expect(progress[0]).toMatchObject({ state: 'running', done: 0, total: 12 });
    const end = progress[progress.length - 1];
    expect(end).toMatchObject({ state: 'done', done: 12, total: 12, labelled: 12, modelSlot: 'imported', rule: 'majority', dataName: 'sample.jsonl' });
    await h.run({ type: 'picksDownload' });
    const exported = h.last('exported')!;
    // The documented name (docs/design.md, "Picks"), whatever files were read (issue 48, point 12; was picks-sample.jsonl).
    expect(exported).toMatchObject({ fileName: 'picks.jsonl', what: 'picks' });
    const records = new TextDecoder()
      .decode(exported.bytes)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as PicksRecord);
    expect(records.map((r) => r.group)).toEqual([...Array(12).keys()]);
    expect(records.every((r) => r.rule === 'majority' && r.energies.length === 4)).toBe(true);
    expect(end.accuracy).toBe(records.filter((r) => r.correct === 1).length / 12);
  });

  it("picks the picks slot: a file without labels or gold, every record's correct null and no accuracy", async () => {
    const h = harness();
    const bare = sampleLines(0, 20)
      .trim()
      .split('\n')
      .map((l) => {
        const { label: _l, gold: _g, ...rest } = JSON.parse(l) as Record<string, unknown>;
        return JSON.stringify(rest);
      })
      .join('\n');
    await h.run({ type: 'loadData', role: 'train', source: file(bare, 'bare.jsonl') });
    expect(h.last('dataset')!.summary.labelsFrom).toBe('none');
    await h.run({ type: 'import', bytes: await modelFile(3), fileName: 'tiny.safetensors' });
    await h.run({ type: 'picks', set: 'picks', rule: 'recommended' });
    expect(h.last('picksProgress')).toMatchObject({ state: 'done', done: 5, total: 5, labelled: 0, accuracy: null, rule: 'weightedVote', set: 'picks' });
    await h.run({ type: 'picksDownload' });
    const records = new TextDecoder()
      .decode(h.last('exported')!.bytes)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as PicksRecord);
    expect(records.map((r) => r.correct)).toEqual([null, null, null, null, null]);
  });
});
