import { type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames, openDB } from 'idb';
import type { RecordedSplit } from '../../engine/data/splitRecord.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import type { TrainPoint } from '../../engine/train/loop.ts';
import type { TrainSettings } from '../../engine/train/settings.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { StoredDatasetInfo } from '../protocols/data.ts';
import type { EvalReport } from '../protocols/models.ts';
import type { SavedRunState } from '../protocols/training.ts';

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
  /** The whole split (seed, fraction, the file's content hash); absent in runs stored before it was recorded (seed only, fraction 0.8). */
  split?: RecordedSplit;
  totalSteps: number;
  state: SavedRunState;
  /** Step of the checkpoint stored with it (0: none yet): written with the checkpoint only (see saveRun). */
  checkpointStep: number;
  /**
   * The run's loop is over (finished, stopped, or cut off and so marked): a 'paused' run not ended whose
   * page went away was cut off; a stopped one stays 'paused'. Absent in records written before it.
   */
  ended?: boolean;
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
/** The training file loaded last, stored or not (JSON of LastTrainLoad): a reload says when it is not the one brought back. */
const LAST_TRAIN_LOAD = 'lastTrainLoad';
/** A picks run under way (JSON of its progress) by run id: one still there after a reload was cut off. */
const PICKS_RUN = 'picksRun:';
const VERSION = 3;

/** The training file the user loaded last: its name and storage key (null: it cannot be stored, e.g. a picks set). */
export interface LastTrainLoad {
  name: string;
  key: string | null;
}

/** What the user is told about other tabs holding the database (each in plain words). */
export interface StorageNotices {
  /** Opening waits for another tab (of an older version) to let go; it goes through by itself once that tab does. */
  blocked?(message: string): void;
  /** This tab let go of its connection so that another tab could upgrade (`reload`: this tab must be reloaded to save again) or delete the database. */
  closed?(message: string, reload: boolean): void;
}

const BLOCKED =
  "Saved runs and datasets cannot be opened yet: another EORM Studio tab (an older version of the app) keeps this browser's storage open. " +
  'Close the other EORM Studio tab (or reload it): this tab opens them as soon as it is closed, and goes on without them meanwhile.';
const NEWER =
  "A newer version of EORM Studio was opened in another tab and needs this browser's storage: this tab let go of it and no longer saves runs or datasets. " +
  'Reload this tab to go on saving.';
const CLEARED = "This browser's storage for the app was cleared in another tab: what this tab saves next goes into a fresh one.";
const UPGRADED = "A newer version of EORM Studio upgraded this browser's storage in another tab: reload this tab to go on saving runs and datasets.";

/**
 * The app's IndexedDB database, through idb (typed stores, promises, upgrade handling). The connection
 * is let go when another tab needs to upgrade or delete the database, and opened again on the next use.
 */
export class StudioDb {
  private conn: Promise<IDBPDatabase<Schema>> | null = null;

  private constructor(
    private readonly name: string,
    private readonly notices: StorageNotices,
  ) {}

  /**
   * null where the context has no IndexedDB (Node tests, some private modes): the app then keeps
   * everything in memory. While another tab blocks the open, `notices.blocked` is told and this waits.
   */
  static async open(name = 'eorm-studio', notices: StorageNotices = {}): Promise<StudioDb | null> {
    if (typeof indexedDB === 'undefined') return null;
    const db = new StudioDb(name, notices);
    await db.connection();
    return db;
  }

  private connection(): Promise<IDBPDatabase<Schema>> {
    if (this.conn) return this.conn;
    const lost = () => {
      this.conn = null;
    };
    let toldBlocked = false;
    const opening = openDB<Schema>(this.name, VERSION, {
      upgrade: (d, oldVersion, _newVersion, tx) => upgrade(d, oldVersion, tx),
      blocked: () => {
        if (!toldBlocked) this.notices.blocked?.(BLOCKED);
        toldBlocked = true;
      },
      blocking: (_current, next, event) => {
        (event.target as IDBDatabase).close();
        lost();
        this.notices.closed?.(next === null ? CLEARED : NEWER, next !== null);
      },
      terminated: lost,
    }).catch((e: unknown) => {
      lost();
      throw e instanceof DOMException && e.name === 'VersionError' ? new Error(UPGRADED) : e;
    });
    this.conn = opening;
    return opening;
  }

  async listRuns(): Promise<StoredRun[]> {
    return (await this.connection()).getAll('runs');
  }

  async getRun(id: string): Promise<StoredRun | undefined> {
    return (await this.connection()).get('runs', id);
  }

  /** A new run's record. */
  async putRun(run: StoredRun): Promise<void> {
    await (await this.connection()).put('runs', run);
  }

  /**
   * A run's state and history, in one transaction with a read of its record: the checkpoint step stays
   * the stored one, so a state change issued before a checkpoint's write committed cannot undo it.
   */
  async saveRun(run: StoredRun): Promise<void> {
    const tx = (await this.connection()).transaction('runs', 'readwrite');
    const runs = tx.objectStore('runs');
    const stored = await runs.get(run.id);
    await Promise.all([runs.put({ ...run, checkpointStep: stored?.checkpointStep ?? 0 }), tx.done]);
  }

  /** The run record and its checkpoint in one transaction, so the listed checkpoint step is the stored one. */
  async putCheckpoint(run: StoredRun, checkpoint: RunCheckpoint): Promise<void> {
    const tx = (await this.connection()).transaction(['runs', 'checkpoints'], 'readwrite');
    await Promise.all([tx.objectStore('checkpoints').put({ runId: run.id, checkpoint }), tx.objectStore('runs').put(run), tx.done]);
  }

  async getCheckpoint(runId: string): Promise<RunCheckpoint | undefined> {
    return (await (await this.connection()).get('checkpoints', runId))?.checkpoint;
  }

  /** Frees a run's checkpoint and keeps its record and history (it can no longer be resumed). */
  async deleteCheckpoint(run: StoredRun): Promise<void> {
    const tx = (await this.connection()).transaction(['runs', 'checkpoints'], 'readwrite');
    await Promise.all([tx.objectStore('checkpoints').delete(run.id), tx.objectStore('runs').put(run), tx.done]);
  }

  async deleteRun(id: string): Promise<void> {
    const tx = (await this.connection()).transaction(['runs', 'checkpoints'], 'readwrite');
    await Promise.all([tx.objectStore('runs').delete(id), tx.objectStore('checkpoints').delete(id), tx.done]);
  }

  async getDataset(key: string): Promise<StoredData | undefined> {
    return (await (await this.connection()).get('datasets', key))?.data;
  }

  async putDataset(key: string, data: StoredData): Promise<void> {
    const tx = (await this.connection()).transaction(['datasets', 'datasetInfo'], 'readwrite');
    await Promise.all([tx.objectStore('datasets').put({ key, data }), tx.objectStore('datasetInfo').put(datasetInfo(key, data)), tx.done]);
  }

  async listDatasets(): Promise<StoredDatasetInfo[]> {
    return (await this.connection()).getAll('datasetInfo');
  }

  async deleteDataset(key: string): Promise<void> {
    const tx = (await this.connection()).transaction(['datasets', 'datasetInfo', 'meta'], 'readwrite');
    const meta = tx.objectStore('meta');
    const [last, load] = await Promise.all([meta.get(LAST_TRAIN), meta.get(LAST_TRAIN_LOAD)]);
    await Promise.all([
      tx.objectStore('datasets').delete(key),
      tx.objectStore('datasetInfo').delete(key),
      last === key ? meta.delete(LAST_TRAIN) : Promise.resolve(),
      // Deleted on purpose: a reload has nothing to say about it.
      load !== undefined && (JSON.parse(load) as LastTrainLoad).key === key ? meta.delete(LAST_TRAIN_LOAD) : Promise.resolve(),
      tx.done,
    ]);
  }

  /** Written before the file itself is stored: a reload while that write is open still knows which file it was. */
  async markLastTrainLoad(load: LastTrainLoad): Promise<void> {
    await (await this.connection()).put('meta', JSON.stringify(load), LAST_TRAIN_LOAD);
  }

  async lastTrainLoad(): Promise<LastTrainLoad | null> {
    const load = await (await this.connection()).get('meta', LAST_TRAIN_LOAD);
    return load === undefined ? null : (JSON.parse(load) as LastTrainLoad);
  }

  async putPicksRun(id: string, progress: unknown): Promise<void> {
    await (await this.connection()).put('meta', JSON.stringify(progress), PICKS_RUN + id);
  }

  async deletePicksRun(id: string): Promise<void> {
    await (await this.connection()).delete('meta', PICKS_RUN + id);
  }

  /** The picks runs recorded as under way, by id. */
  async listPicksRuns(): Promise<Array<{ id: string; progress: unknown }>> {
    const db = await this.connection();
    const keys = await db.getAllKeys('meta', IDBKeyRange.bound(PICKS_RUN, `${PICKS_RUN}\uffff`));
    const values = await Promise.all(keys.map((k) => db.get('meta', k)));
    return keys.flatMap((k, i) => (values[i] === undefined ? [] : [{ id: k.slice(PICKS_RUN.length), progress: JSON.parse(values[i]!) as unknown }]));
  }

  async markLastTrain(key: string): Promise<void> {
    await (await this.connection()).put('meta', key, LAST_TRAIN);
  }

  /** Stores a training file and remembers it as the one to restore after a reload. */
  async putTrainDataset(key: string, data: StoredData): Promise<void> {
    const tx = (await this.connection()).transaction(['datasets', 'datasetInfo', 'meta'], 'readwrite');
    await Promise.all([
      tx.objectStore('datasets').put({ key, data }),
      tx.objectStore('datasetInfo').put(datasetInfo(key, data)),
      tx.objectStore('meta').put(key, LAST_TRAIN),
      tx.done,
    ]);
  }

  async lastTrainDataset(): Promise<{ key: string; data: StoredData } | null> {
    const key = await (await this.connection()).get('meta', LAST_TRAIN);
    if (!key) return null;
    const data = await this.getDataset(key);
    return data ? { key, data } : null;
  }
}

function datasetInfo(key: string, data: StoredData, savedAt = Date.now()): StoredDatasetInfo {
  return { key, name: data.name, bytes: data.bytes, candidates: data.dataset.candidateCount, savedAt };
}

/**
 * Creates what is missing and migrates what exists: version 1 had no dataset list and version 2 added
 * it empty, so the datasets stored before are listed now; records written before version 3 could name
 * an older checkpoint than the stored one (a stale state write landed after it), so each takes the
 * step of its stored checkpoint.
 */
async function upgrade(d: IDBPDatabase<Schema>, oldVersion: number, tx: IDBPTransaction<Schema, StoreNames<Schema>[], 'versionchange'>): Promise<void> {
  if (!d.objectStoreNames.contains('runs')) d.createObjectStore('runs', { keyPath: 'id' });
  if (!d.objectStoreNames.contains('checkpoints')) d.createObjectStore('checkpoints', { keyPath: 'runId' });
  if (!d.objectStoreNames.contains('datasets')) d.createObjectStore('datasets', { keyPath: 'key' });
  if (!d.objectStoreNames.contains('datasetInfo')) d.createObjectStore('datasetInfo', { keyPath: 'key' });
  if (!d.objectStoreNames.contains('meta')) d.createObjectStore('meta');
  if (oldVersion === 0 || oldVersion >= 3) return;
  const infos = tx.objectStore('datasetInfo');
  const migratedAt = Date.now();
  for (let c = await tx.objectStore('datasets').openCursor(); c; c = await c.continue()) {
    if ((await infos.count(c.value.key)) === 0) await infos.put(datasetInfo(c.value.key, c.value.data, migratedAt));
  }
  const runs = tx.objectStore('runs');
  for (let c = await tx.objectStore('checkpoints').openCursor(); c; c = await c.continue()) {
    const run = await runs.get(c.value.runId);
    const step = c.value.checkpoint.step;
    if (run && run.checkpointStep !== step) await runs.put({ ...run, checkpointStep: step });
  }
}
