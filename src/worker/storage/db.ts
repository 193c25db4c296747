import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { ModelConfig } from '../../engine/model/config.ts';
import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import type { TrainPoint } from '../../engine/train/loop.ts';
import type { TrainSettings } from '../../engine/train/settings.ts';
import type { LoadedData } from '../dataLoader.ts';
import type { EvalReport, SavedRunState, StoredDatasetInfo } from '../protocol.ts';

/** A run as kept in the browser: enough to list it with its curves and to resume it from its checkpoint. */
export interface StoredRun {
  id: string;
  createdAt: number;
  settings: TrainSettings;
  /** The model's config (a run continued from an imported model has that model's). */
  cfg: ModelConfig;
  datasetKey: string;
  datasetName: string;
  splitSeed: number;
  totalSteps: number;
  state: SavedRunState;
  /** Step of the checkpoint stored with it (0: none yet). */
  checkpointStep: number;
  /** The metric history up to now (points and the run's own validations). */
  points: TrainPoint[];
  evaluations: EvalReport[];
  bestValBestOfN: number | null;
}

/** A tokenized training file, everything but its split (recomputed from the seed). */
export type StoredData = Omit<LoadedData, 'split' | 'splitSeed' | 'role' | 'key'>;

interface Schema extends DBSchema {
  runs: { key: string; value: StoredRun };
  /** The latest checkpoint of each run. */
  checkpoints: { key: string; value: { runId: string; checkpoint: RunCheckpoint } };
  /** By content hash, tokenizer and token cap (see datasetKey.ts). */
  datasets: { key: string; value: { key: string; data: StoredData } };
  /** What the list of stored datasets shows, without reading the data itself. */
  datasetInfo: { key: string; value: StoredDatasetInfo };
  meta: { key: string; value: string };
}

const LAST_TRAIN = 'lastTrainDataset';

/** The app's IndexedDB database, through idb (typed stores, promises, upgrade handling). */
export class StudioDb {
  private constructor(private readonly db: IDBPDatabase<Schema>) {}

  /** null where the context has no IndexedDB (Node tests, some private modes): the app then keeps everything in memory. */
  static async open(name = 'eorm-studio'): Promise<StudioDb | null> {
    if (typeof indexedDB === 'undefined') return null;
    const db = await openDB<Schema>(name, 2, {
      upgrade(d) {
        if (!d.objectStoreNames.contains('runs')) d.createObjectStore('runs', { keyPath: 'id' });
        if (!d.objectStoreNames.contains('checkpoints')) d.createObjectStore('checkpoints', { keyPath: 'runId' });
        if (!d.objectStoreNames.contains('datasets')) d.createObjectStore('datasets', { keyPath: 'key' });
        if (!d.objectStoreNames.contains('datasetInfo')) d.createObjectStore('datasetInfo', { keyPath: 'key' });
        if (!d.objectStoreNames.contains('meta')) d.createObjectStore('meta');
      },
    });
    return new StudioDb(db);
  }

  listRuns(): Promise<StoredRun[]> {
    return this.db.getAll('runs');
  }

  getRun(id: string): Promise<StoredRun | undefined> {
    return this.db.get('runs', id);
  }

  async putRun(run: StoredRun): Promise<void> {
    await this.db.put('runs', run);
  }

  /** The run record and its checkpoint in one transaction, so the listed checkpoint step is the stored one. */
  async putCheckpoint(run: StoredRun, checkpoint: RunCheckpoint): Promise<void> {
    const tx = this.db.transaction(['runs', 'checkpoints'], 'readwrite');
    await Promise.all([tx.objectStore('checkpoints').put({ runId: run.id, checkpoint }), tx.objectStore('runs').put(run), tx.done]);
  }

  async getCheckpoint(runId: string): Promise<RunCheckpoint | undefined> {
    return (await this.db.get('checkpoints', runId))?.checkpoint;
  }

  /** Frees a run's checkpoint and keeps its record and history (it can no longer be resumed). */
  async deleteCheckpoint(run: StoredRun): Promise<void> {
    const tx = this.db.transaction(['runs', 'checkpoints'], 'readwrite');
    await Promise.all([tx.objectStore('checkpoints').delete(run.id), tx.objectStore('runs').put(run), tx.done]);
  }

  async deleteRun(id: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'checkpoints'], 'readwrite');
    await Promise.all([tx.objectStore('runs').delete(id), tx.objectStore('checkpoints').delete(id), tx.done]);
  }

  async getDataset(key: string): Promise<StoredData | undefined> {
    return (await this.db.get('datasets', key))?.data;
  }

  async putDataset(key: string, data: StoredData): Promise<void> {
    const tx = this.db.transaction(['datasets', 'datasetInfo'], 'readwrite');
    await Promise.all([tx.objectStore('datasets').put({ key, data }), tx.objectStore('datasetInfo').put(datasetInfo(key, data)), tx.done]);
  }

  listDatasets(): Promise<StoredDatasetInfo[]> {
    return this.db.getAll('datasetInfo');
  }

  async deleteDataset(key: string): Promise<void> {
    const tx = this.db.transaction(['datasets', 'datasetInfo', 'meta'], 'readwrite');
    const meta = tx.objectStore('meta');
    const last = await meta.get(LAST_TRAIN);
    await Promise.all([
      tx.objectStore('datasets').delete(key),
      tx.objectStore('datasetInfo').delete(key),
      last === key ? meta.delete(LAST_TRAIN) : Promise.resolve(),
      tx.done,
    ]);
  }

  async markLastTrain(key: string): Promise<void> {
    await this.db.put('meta', key, LAST_TRAIN);
  }

  /** Stores a training file and remembers it as the one to restore after a reload. */
  async putTrainDataset(key: string, data: StoredData): Promise<void> {
    const tx = this.db.transaction(['datasets', 'datasetInfo', 'meta'], 'readwrite');
    await Promise.all([
      tx.objectStore('datasets').put({ key, data }),
      tx.objectStore('datasetInfo').put(datasetInfo(key, data)),
      tx.objectStore('meta').put(key, LAST_TRAIN),
      tx.done,
    ]);
  }

  async lastTrainDataset(): Promise<{ key: string; data: StoredData } | null> {
    const key = await this.db.get('meta', LAST_TRAIN);
    if (!key) return null;
    const data = await this.getDataset(key);
    return data ? { key, data } : null;
  }
}

function datasetInfo(key: string, data: StoredData): StoredDatasetInfo {
  return { key, name: data.name, bytes: data.bytes, candidates: data.dataset.candidateCount, savedAt: Date.now() };
}
