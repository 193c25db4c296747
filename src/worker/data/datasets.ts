import { formatLineErrors } from '../../engine/data/lineErrors.ts';
import { withSources } from '../../engine/data/candidateSources.ts';
import { keepCandidates } from '../../engine/data/keptCandidates.ts';
import { DEFAULT_TRAIN_FRACTION, RECORDED_SPLIT_KIND_DEFAULT, type SplitKind, splitGroups } from '../../engine/data/split.ts';
import type { TokenizePool } from '../../engine/data/tokenize/tokenizePool.ts';
import { settingsSplitShape, storedDataHash } from '../../engine/data/olderRecords.ts';
import type { TrainSettings } from '../../engine/train/settings.ts';
import { type LoadedData, type LoadedPicks, STORED_MAX_BYTES, summarize, summarizePicks } from './dataLoader.ts';
import { DatasetStorage } from './datasetStorage.ts';
import type { DataRole, DatasetSummary, DataSource } from '../protocols/data.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { StoredData } from '../storage/db.ts';
import { contentHashOfKey } from '../storage/datasetKey.ts';
import type { Persister } from '../storage/persister.ts';

/** How a run splits besides seed and fraction: which groups are held out, and which sources. */
export interface SplitShape {
  kind: SplitKind;
  holdoutSources: readonly string[];
}

/** The shape the form's settings ask for (older records: data/olderRecords.ts). */
export function settingsShape(s: TrainSettings): SplitShape {
  return settingsSplitShape(s);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The loaded data of each role and its split: loads a file (or recalls its tokenization from storage),
 * re-splits the training data, and sends the panel's summaries. Every replacement of a role's data goes
 * through `replace`, which bumps its version: a command that read the data before an await compares
 * versions to notice it moved.
 */
export class Datasets {
  private readonly data: Partial<Record<DataRole, LoadedData>> = {};
  /** Bumped whenever a role's data or its split changes: part of the evaluation cache's key. */
  private readonly versions: Record<DataRole, number> = { train: 0, test: 0 };
  /** The newest load asked for per role: an older one that finishes later is set aside. */
  private readonly loads: Record<DataRole, number> = { train: 0, test: 0 };
  /** maxLen and split each dataset's last summary was made with. */
  private readonly summarized = new WeakMap<LoadedData, string>();
  /** Training data narrowed to the candidates a split with held-out sources keeps → the file's whole data, to re-split from. */
  private readonly whole = new WeakMap<LoadedData, LoadedData>();
  /** Files up to this many bytes are kept in storage (tests lower it); larger ones are hashed as they stream, and not kept. */
  storedMaxBytes = STORED_MAX_BYTES;
  private readonly storage: DatasetStorage;
  /** The last file loaded without any label or gold answer (the 'picks' slot): Pick answers reads it. */
  private picksData: LoadedPicks | undefined;
  /** The role whose panel shows the picks set (its own labelled data, if any, is kept but not shown). */
  private picksShownIn: DataRole | null = null;

  constructor(
    private readonly emit: (event: WorkerEvent) => void,
    pool: () => TokenizePool,
    persist: Persister,
    /** A run is in progress: the training data may not be replaced by a load. */
    private readonly training: () => boolean,
    /** Told right after a role's data was replaced, before anyone hears of it. */
    private readonly replaced: (role: DataRole) => void,
    /** Told once a newly tokenized file is stored. */
    stored: () => void,
    /** The settings in force (the form's as last sent, or a resumed run's): loads split with their seed, summaries judge lengths by their maxLen. */
    private readonly settings: () => TrainSettings,
  ) {
    this.storage = new DatasetStorage(persist, { emit, pool, seed: () => settings().seed, maxBytes: () => this.storedMaxBytes, stored });
  }

  get(role: DataRole): LoadedData | undefined {
    return this.data[role];
  }

  /** The picks slot: the last loaded file without labels or gold answers. */
  picks(): LoadedPicks | undefined {
    return this.picksData;
  }

  version(role: DataRole): number {
    return this.versions[role];
  }

  require(role: DataRole): LoadedData {
    const d = this.data[role];
    if (!d) throw new Error(role === 'train' ? 'Load a dataset first (a JSONL file, or the built-in sample).' : 'Load a test file first.');
    return d;
  }

  /** True until a training file is loaded or asked for: a recall from storage must not override the user's pick. */
  trainUntouched(): () => boolean {
    const ticket = this.loads.train;
    return () => this.loads.train === ticket && !this.data.train;
  }

  /** Brings back the last training file, if `untouched` still holds once it is read, and says so when another was loaded after it. */
  async recallLastTrain(untouched: () => boolean): Promise<void> {
    const { last, note } = await this.storage.lastTrain();
    if (!untouched()) return;
    if (last) this.installTrain(last.key, last.data, this.settings().seed);
    if (note) this.emit({ type: 'dataNote', role: 'train', message: note });
  }

  async load(role: DataRole, source: DataSource): Promise<void> {
    if (role === 'train' && this.training()) throw new Error('Stop the training run before loading another training file.');
    const ticket = ++this.loads[role];
    const newest = () => this.loads[role] === ticket;
    let loaded: LoadedData | LoadedPicks;
    let keep: () => void;
    try {
      ({ loaded, keep } = await this.storage.loadOrRecall(role, source, newest));
    } catch (e) {
      // A newer pick of this role is under way: its outcome is the one the panel waits for.
      if (!newest()) return;
      // Said once, here, and only when there is data to keep (the panel adds nothing).
      const shown = this.picksShownIn === role ? this.picksData : this.data[role];
      if (shown) throw new Error(`${e instanceof Error ? e.message : String(e)} The previously loaded data is kept (${shown.name}).`);
      throw e;
    }
    if (!newest()) {
      this.emit({ type: 'log', level: 'info', message: `${loaded.name} finished loading after a newer file was picked; it was set aside.` });
      return;
    }
    if ('picks' in loaded) {
      // The role keeps its labelled data (evaluation still reads it); the panel shows the picks set instead.
      this.picksData = loaded;
      this.picksShownIn = role;
      this.emit({ type: 'dataset', summary: summarizePicks(loaded), reason: 'loaded' });
      keep();
      return;
    }
    if (this.picksShownIn === role) this.picksShownIn = null;
    // Start may have run while the file loaded: the run keeps the data it started with.
    if (role === 'train' && this.training())
      throw new Error(`${loaded.name} finished loading after training started; the run keeps its data. Stop it, then load the file again.`);
    const data = role === 'train' ? this.split(loaded, this.settings().seed, DEFAULT_TRAIN_FRACTION, settingsShape(this.settings())) : loaded;
    // Summarized before it replaces anything or is stored: data the panel cannot show is neither kept nor brought back after a reload.
    const summary = this.summary(data);
    this.replace(role, data);
    this.emit({ type: 'dataset', summary, reason: 'loaded' });
    keep();
  }

  /** Stored training data back in the train role (after a reload, or for a resumed run). */
  installTrain(key: string, stored: StoredData, seed: number): LoadedData {
    this.loads.train++;
    const contentHash = storedDataHash(contentHashOfKey(key), stored);
    const data = this.split(
      { ...stored, role: 'train', key, contentHash, split: { train: new Uint32Array(0), val: new Uint32Array(0) }, splitSeed: seed },
      seed,
      DEFAULT_TRAIN_FRACTION,
      settingsShape(this.settings()),
    );
    this.replace('train', data);
    this.emit({ type: 'dataset', summary: this.summary(data), reason: 'loaded' });
    return data;
  }

  /**
   * The training data split with `seed`, `trainFraction` and `shape` (fields left out: the settings' kind and
   * held-out sources): as it is, or a re-split copy (a command still reading the old split keeps it).
   */
  withSplit(d: LoadedData, seed: number, trainFraction = DEFAULT_TRAIN_FRACTION, shape: Partial<SplitShape> = {}): LoadedData {
    const next = this.splitAs(d, seed, trainFraction, shape);
    if (next !== d) this.replace('train', next);
    return next;
  }

  /**
   * `d` split so, without installing it: `d` itself when it is split so already, else a re-split copy. A
   * model's evaluation reads the split the model records this way; the training role keeps the form's.
   */
  splitAs(d: LoadedData, seed: number, trainFraction = DEFAULT_TRAIN_FRACTION, shape: Partial<SplitShape> = {}): LoadedData {
    const base = this.whole.get(d) ?? d;
    const want = { ...settingsShape(this.settings()), ...shape };
    const holdout = presentSources(base, want.holdoutSources);
    const same =
      d.splitSeed === seed &&
      (d.splitFraction ?? DEFAULT_TRAIN_FRACTION) === trainFraction &&
      (d.split.kind ?? RECORDED_SPLIT_KIND_DEFAULT) === want.kind &&
      sameList(d.split.holdoutSources ?? [], holdout);
    return same ? d : this.split(base, seed, trainFraction, { kind: want.kind, holdoutSources: holdout });
  }

  /**
   * `d` (the file's whole data) split as asked. With held-out sources, a copy narrowed to the candidates the
   * split keeps (keptCandidates.ts): training, validation and Inspect then read only those.
   */
  private split(d: LoadedData, seed: number, trainFraction: number, shape: SplitShape): LoadedData {
    const view = withSources(d.view, d.dataset);
    const holdoutSources = presentSources(d, shape.holdoutSources);
    const { keep, ...split } = splitGroups(view, { seed, trainFraction, kind: shape.kind, holdoutSources });
    if (!keep) return { ...d, split, splitSeed: seed, splitFraction: trainFraction };
    const narrowed: LoadedData = { ...keepCandidates({ ...d, view }, keep), split, splitSeed: seed, splitFraction: trainFraction };
    this.whole.set(narrowed, d);
    return narrowed;
  }

  /** Truncation counts depend on maxLen, the split on the seed: re-send a summary when either moved. */
  refreshSummaries(): void {
    for (const d of Object.values(this.data)) {
      if (d.role === this.picksShownIn) continue;
      if (this.summarized.get(d) !== this.summaryBasis(d)) this.emit({ type: 'dataset', summary: this.summary(d), reason: 'refreshed' });
    }
  }

  downloadErrors(role: DataRole, format: 'text' | 'csv' | 'jsonl'): void {
    const d = this.picksShownIn === role && this.picksData ? { name: this.picksData.name, dataset: this.picksData.picks } : this.require(role);
    const mime = { text: 'text/plain', csv: 'text/csv', jsonl: 'application/x-ndjson' }[format];
    const ext = { text: 'txt', csv: 'csv', jsonl: 'jsonl' }[format];
    this.emit({
      type: 'errorList',
      fileName: `${d.name.replace(/\.[^.]*$/, '')}.rejected.${ext}`,
      mime,
      text: formatLineErrors(d.dataset.report.errors, format),
    });
  }

  private replace(role: DataRole, d: LoadedData): void {
    this.data[role] = d;
    this.versions[role]++;
    this.replaced(role);
  }

  /** The panel's figures, judged against the current maxLen and split; remembered so refreshes happen only on change. */
  private summary(d: LoadedData): DatasetSummary {
    const summary = summarize(d, this.settings().model.maxLen);
    this.summarized.set(d, this.summaryBasis(d));
    const sources = withSources(d.view, d.dataset).sources!.names;
    if (!summary.split) return { ...summary, sources };
    return {
      ...summary,
      sources,
      split: { ...summary.split, kind: d.split.kind ?? RECORDED_SPLIT_KIND_DEFAULT, holdoutSources: d.split.holdoutSources ?? [] },
    };
  }

  private summaryBasis(d: LoadedData): string {
    return `${this.settings().model.maxLen}:${d.splitSeed}:${d.splitFraction}:${d.split.kind}:${(d.split.holdoutSources ?? []).join(',')}`;
  }
}

/** The names of `wanted` that some candidate of `d` carries, in the order given (a name the file lacks holds nothing out). */
function presentSources(d: LoadedData, wanted: readonly string[]): string[] {
  const names = new Set(withSources(d.view, d.dataset).sources!.names);
  return wanted.filter((s) => names.has(s));
}
