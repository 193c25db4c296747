/** The rows of the runs comparison, as a pure function of two listed runs (RunCompare renders them). */
import { shortHash } from '../../engine/data/splitRecord.ts';
import { type ModelSettings, type PresetName, PRESETS } from '../../engine/train/settings.ts';
import type { SavedRunInfo } from '../../worker/protocols/training.ts';
import { fixed } from '../format.ts';

export interface CompareRow {
  label: string;
  a: string;
  b: string;
  differs: boolean;
}

type Value = (r: SavedRunInfo) => string | number;

/** The preset a run's model is: the form's for a fresh run; for a continued one, the preset its config equals, if any. */
function preset(r: SavedRunInfo): PresetName {
  if (r.settings.init === 'fresh') return r.settings.preset;
  const same = (m: ModelSettings) => (Object.keys(m) as Array<keyof ModelSettings>).every((k) => m[k] === r.model[k]);
  return (Object.keys(PRESETS) as Array<keyof typeof PRESETS>).find((p) => same(PRESETS[p])) ?? 'custom';
}

const dataset = (r: SavedRunInfo) => (r.datasetHash ? `${r.datasetName} · ${shortHash(r.datasetHash)}` : `${r.datasetName} (not hashed)`);

const ROWS: Array<[label: string, value: Value]> = [
  ['State', (r) => r.state],
  ['Checkpoint step', (r) => `${r.checkpointStep} / ${r.totalSteps}`],
  ['Last smoothed loss', (r) => fixed(r.lastLoss)],
  ['Best val Best-of-N', (r) => fixed(r.bestValBestOfN)],
  ['Preset', preset],
  // What the run trained (a continued run trains the model it continued, whatever the form said).
  ['d_model', (r) => r.model.dModel],
  ['Layers', (r) => r.model.nLayers],
  ['Heads', (r) => r.model.nHeads],
  ['FFN width', (r) => r.model.ffnDim],
  ['Dropout', (r) => r.model.dropout],
  ['Max length', (r) => r.model.maxLen],
  ['Positional', (r) => r.model.positional],
  ['Split', (r) => `seed ${r.split.seed}, ${Number((r.split.trainFraction * 100).toFixed(2))}% train`],
  ['Epochs', (r) => r.settings.epochs],
  ['Learning rate', (r) => r.settings.lr],
  ['Warmup ratio', (r) => r.settings.warmupRatio],
  ['Weight decay', (r) => r.settings.weightDecay],
  ['Max grad norm', (r) => r.settings.maxGradNorm],
  ['Seed', (r) => r.settings.seed],
  ['Groups / step', (r) => r.settings.groupsPerStep],
  ['Micro-batch', (r) => r.settings.microBatch],
  ['Init', (r) => r.settings.init],
];

/** Every row with both runs' values; `differs` marks a difference (files: by content hash when both have one). */
export function compareRows(a: SavedRunInfo, b: SavedRunInfo): CompareRow[] {
  const [da, db] = [dataset(a), dataset(b)];
  const sameData = a.datasetHash && b.datasetHash ? a.datasetHash === b.datasetHash : da === db;
  return [
    { label: 'Dataset', a: da, b: db, differs: !sameData },
    ...ROWS.map(([label, value]) => {
      const [va, vb] = [String(value(a)), String(value(b))];
      return { label, a: va, b: vb, differs: va !== vb };
    }),
  ];
}
