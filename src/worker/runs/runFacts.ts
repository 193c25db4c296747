import { storedRunSplit } from '../../engine/data/olderRecords.ts';
import { contentHashOfKey } from '../storage/datasetKey.ts';
import { modelSettingsOf } from '../models/modelSlots.ts';
import type { SavedRunInfo } from '../protocols/training.ts';
import type { StoredRun } from '../storage/db.ts';

/** What a stored run actually trained: its model config, its file's identity and its split (older records: from the key, fraction 0.8). */
export function runFacts(r: StoredRun): Pick<SavedRunInfo, 'model' | 'datasetHash' | 'split'> {
  const { seed, trainFraction, dataset } = storedRunSplit(r, contentHashOfKey(r.datasetKey));
  return { model: modelSettingsOf(r.cfg), datasetHash: dataset, split: { seed, trainFraction } };
}
