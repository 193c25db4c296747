import { splitGroups } from '../../engine/data/split.ts';
import type { TokenizePool } from '../../engine/data/tokenize/tokenizePool.ts';
import { type LoadedData, type LoadedPicks, TOKEN_CAP, loadAny, readWhole } from './dataLoader.ts';
import type { DataRole, DataSource, IngestProgressEvent } from '../protocols/data.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { LastTrainLoad, StoredData } from '../storage/db.ts';
import { datasetKey, hashBytes, isCurrentDatasetKey } from '../storage/datasetKey.ts';
import type { Persister } from '../storage/persister.ts';

export interface StorageDeps {
  emit: (event: WorkerEvent) => void;
  pool: () => TokenizePool;
  seed: () => number;
  /** Loads up to this many bytes (all files together) are kept in storage. */
  maxBytes: () => number;
  /** Told once a newly tokenized load is stored. */
  stored: () => void;
}

/** A load, and what keeps it once the caller installed it (stores it, and names it as the training file loaded last). */
export interface Kept {
  loaded: LoadedData | LoadedPicks;
  keep: () => void;
}

const MiB = 2 ** 20;

/**
 * What of the loaded data is kept in this browser's storage, and what a reload is told about it: a file (or
 * files dropped together) tokenized before comes back from storage, a new one is stored once installed, and
 * the training file loaded last is named before it is stored, so that a reload which brings back another one
 * (it was too big, had no labels, or was still being written) says so (issue 48, point 7).
 */
export class DatasetStorage {
  constructor(
    private readonly persist: Persister,
    private readonly deps: StorageDeps,
  ) {}

  async loadOrRecall(role: DataRole, source: DataSource, newest: () => boolean): Promise<Kept> {
    const progress = (e: IngestProgressEvent) => {
      if (newest()) this.deps.emit(e);
    };
    const available = await this.persist.available();
    const whole = available ? await readWhole(source, this.deps.maxBytes()) : null;
    if (!whole) {
      const loaded = await loadAny(role, source, this.deps.pool, this.deps.seed(), progress);
      // Files dropped together are hashed as they are read, so they are stored after (within the same cap), never recalled before.
      const storable = available && source.kind === 'files' && source.files.reduce((n, f) => n + f.size, 0) <= this.deps.maxBytes();
      return { loaded, keep: () => (storable && !('picks' in loaded) ? this.store(role, loaded) : this.named(role, loaded)) };
    }
    const contentHash = await hashBytes(whole.bytes);
    const key = datasetKey(contentHash, TOKEN_CAP);
    const stored = await this.persist.read('a stored dataset', (db) => db.getDataset(key));
    if (stored) {
      const seed = this.deps.seed();
      const loaded: LoadedData = { ...stored, name: whole.file.name, role, key, contentHash, split: splitGroups(stored.view, { seed }), splitSeed: seed };
      return { loaded, keep: () => this.named(role, loaded) && this.persist.write('the last training file', (db) => db.markLastTrain(key)) };
    }
    const loaded = await loadAny(role, { kind: 'file', file: whole.file }, this.deps.pool, this.deps.seed(), progress, contentHash);
    return { loaded, keep: () => ('picks' in loaded ? this.named(role, loaded) : this.store(role, loaded)) };
  }

  /**
   * The last stored training file (null: none, or one read by older rules: loading the file reads it anew),
   * and what to tell the user when the training file loaded last is not it.
   */
  async lastTrain(): Promise<{ last: { key: string; data: StoredData } | null; note: string | null }> {
    const [stored, load] = await Promise.all([
      this.persist.read('the last training file', (db) => db.lastTrainDataset()),
      this.persist.read('the last training file', (db) => db.lastTrainLoad()),
    ]);
    const last = stored && isCurrentDatasetKey(stored.key, TOKEN_CAP) ? stored : null;
    if (!load || load.key === last?.key) return { last, note: null };
    const instead = last ? `: ${last.data.name}, loaded before it, is back instead` : '';
    const why = `files without labels or over ${Math.round(this.deps.maxBytes() / MiB)} MiB are not, and one still being saved when the page went away is lost`;
    return {
      last,
      note: `${load.name} was the training file loaded last, but it is not in this browser's storage (${why})${instead}. Load ${load.name} again to use it.`,
    };
  }

  /** Stores a newly tokenized load (a training one as the one to bring back), named first as the training file loaded last. */
  private store(role: DataRole, loaded: LoadedData): void {
    this.named(role, loaded);
    const { split: _s, splitSeed: _k, role: _r, key, ...data } = loaded;
    this.persist.write(
      `the tokenized ${loaded.name}`,
      (db) => (role === 'train' ? db.putTrainDataset(key, data) : db.putDataset(key, data)),
      () => this.deps.stored(),
    );
  }

  /**
   * Names a training load as the one loaded last. Issued before the load's own write: the two transactions share
   * the meta store, so this one commits first, and a reload while the big write is open finds the name.
   */
  private named(role: DataRole, loaded: LoadedData | LoadedPicks): boolean {
    if (role !== 'train') return false;
    const load: LastTrainLoad = { name: loaded.name, key: 'picks' in loaded ? null : loaded.key };
    this.persist.write('the name of the last training file', (db) => db.markLastTrainLoad(load));
    return true;
  }
}
