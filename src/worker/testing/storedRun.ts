/** Test support: a stored run's record with every field filled in, for the run list and the recorder. */
import { DEFAULT_TRAIN_SETTINGS } from '../../engine/train/settings.ts';
import type { StoredRun } from '../storage/db.ts';

/** Run 'r1', running, with no checkpoint and no points yet; `over`: the fields a test sets. */
export function storedRun(over: Partial<StoredRun> = {}): StoredRun {
  return {
    id: 'r1',
    createdAt: 1,
    settings: DEFAULT_TRAIN_SETTINGS,
    cfg: {} as StoredRun['cfg'],
    datasetKey: 'k',
    datasetName: 'a.jsonl',
    splitSeed: 42,
    totalSteps: 10,
    state: 'running',
    checkpointStep: 0,
    points: [],
    evaluations: [],
    bestValBestOfN: null,
    ...over,
  };
}
