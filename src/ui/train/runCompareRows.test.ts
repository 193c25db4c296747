import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../engine/model/config.ts';
import { GPT2_EOT, GPT2_VOCAB } from '../../engine/data/tokenize/gpt2.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS } from '../../engine/train/settings.ts';
import { runInfo } from '../../worker/runs/runRecorder.ts';
import type { StoredRun } from '../../worker/storage/db.ts';
import { compareRows } from './runCompareRows.ts';

const hashA = `sha256:${'a1'.repeat(32)}`;
const hashB = `sha256:${'b2'.repeat(32)}`;
const cfgOf = (m: typeof PRESETS.tiny) => makeConfig({ ...m, vocabSize: GPT2_VOCAB, clsId: GPT2_EOT, sepId: GPT2_EOT, padId: GPT2_EOT });

function run(over: Partial<StoredRun>): StoredRun {
  return {
    id: 'r',
    createdAt: 1,
    settings: DEFAULT_TRAIN_SETTINGS,
    cfg: cfgOf(PRESETS.tiny),
    datasetKey: `${hashA}:r50k_base:4096`,
    datasetName: 'train.jsonl',
    splitSeed: 42,
    split: { seed: 42, trainFraction: 0.8, dataset: hashA },
    totalSteps: 10,
    state: 'done',
    checkpointStep: 10,
    points: [],
    evaluations: [],
    bestValBestOfN: null,
    ...over,
  };
}

const row = (rows: ReturnType<typeof compareRows>, label: string) => rows.find((r) => r.label === label)!;

describe('the runs comparison', () => {
  it('shows the model each run trained (its stored config), not the form it was started from', () => {
    // Continued from an imported paper model while the form said tiny: it trained the paper model.
    const continued = run({ id: 'c', settings: { ...DEFAULT_TRAIN_SETTINGS, init: 'continue' }, cfg: cfgOf(PRESETS.paper) });
    const tiny = run({ id: 't' });
    const rows = compareRows(runInfo(continued), runInfo(tiny));
    expect(row(rows, 'd_model')).toEqual({ label: 'd_model', a: '768', b: '64', differs: true });
    expect(row(rows, 'Max length')).toEqual({ label: 'Max length', a: '2048', b: '256', differs: true });
    expect(row(rows, 'Preset')).toMatchObject({ a: 'paper', b: 'tiny', differs: true });
    expect(row(rows, 'Layers')).toMatchObject({ a: '2', b: '2', differs: false });
  });

  it('tells two different files of the same name apart by their content hash', () => {
    const a = run({ id: 'a' });
    const b = run({ id: 'b', datasetKey: `${hashB}:r50k_base:4096`, split: { seed: 42, trainFraction: 0.8, dataset: hashB } });
    expect(row(compareRows(runInfo(a), runInfo(b)), 'Dataset')).toEqual({
      label: 'Dataset',
      a: 'train.jsonl · sha256:a1a1a1a1…',
      b: 'train.jsonl · sha256:b2b2b2b2…',
      differs: true,
    });
    // The same file under two names is the same data.
    const renamed = run({ id: 'c', datasetName: 'copy.jsonl' });
    expect(row(compareRows(runInfo(a), runInfo(renamed)), 'Dataset').differs).toBe(false);
  });

  it('reads the hash of an older record from its dataset key, and compares split seed and fraction', () => {
    const old = run({ id: 'o', split: undefined, splitSeed: 7 });
    const honoured = run({ id: 'h', split: { seed: 7, trainFraction: 0.9, dataset: hashA } });
    const rows = compareRows(runInfo(old), runInfo(honoured));
    expect(row(rows, 'Dataset')).toMatchObject({ a: 'train.jsonl · sha256:a1a1a1a1…', differs: false });
    expect(row(rows, 'Split')).toEqual({ label: 'Split', a: 'seed 7, 80% train', b: 'seed 7, 90% train', differs: true });
  });

  it('compares by name, saying so, a run whose file was not hashed', () => {
    const unhashed = run({ id: 'u', datasetKey: '', split: { seed: 42, trainFraction: 0.8, dataset: null } });
    const rows = compareRows(runInfo(unhashed), runInfo(run({ id: 'a' })));
    expect(row(rows, 'Dataset')).toMatchObject({ a: 'train.jsonl (not hashed)', differs: true });
  });
});
