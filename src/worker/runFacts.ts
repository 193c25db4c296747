import { DEFAULT_TRAIN_FRACTION } from '../engine/data/split.ts';
import { contentHashOfKey } from './storage/datasetKey.ts';
import { modelSettingsOf } from './modelSlots.ts';
import type { SavedRunInfo } from './protocols/training.ts';
import type { StoredRun } from './storage/db.ts';

/** What a stored run actually trained: its model config, its file's identity and its split (older records: from the key, fraction 0.8). */
export function runFacts(r: StoredRun): Pick<SavedRunInfo, 'model' | 'datasetHash' | 'split'> {
  return {
    model: modelSettingsOf(r.cfg),
    datasetHash: r.split?.dataset ?? contentHashOfKey(r.datasetKey),
    split: { seed: r.split?.seed ?? r.splitSeed, trainFraction: r.split?.trainFraction ?? DEFAULT_TRAIN_FRACTION },
  };
}
