import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { SavedRunInfo } from '../protocols/training.ts';
import { RunRecorder, runInfo } from './runRecorder.ts';
import type { StoredRun } from '../storage/db.ts';
import type { Persister } from '../storage/persister.ts';
import { lockRun, underRunLock } from '../storage/runLocks.ts';

/** A run's loss curve is thinned to about this many points for comparisons. */
const HISTORY_POINTS = 400;

/** The runs and datasets kept in this browser, as the worker lists, records, hands out and deletes them. */
export class SavedRuns {
  private readonly infos = new Map<string, SavedRunInfo>();
  /** Runs this engine records (started or resumed here): their listing is theirs, never the stored copy's. */
  private readonly recording = new Set<string>();

  constructor(
    private readonly persist: Persister,
    private readonly emit: (event: WorkerEvent) => void,
  ) {}

  /**
   * Reads the stored runs. One that says it is in progress was cut off with its page unless a tab holds
   * its lock: it is marked interrupted under that lock, after reading it again (the tab that had it may
   * have written it since). One another tab holds is listed as it stands, and again once let go.
   */
  async load(): Promise<void> {
    const runs = (await this.persist.read('the saved runs', (db) => db.listRuns())) ?? [];
    await Promise.all(
      runs.map(async (r) => {
        if (this.recording.has(r.id)) return;
        if (!inProgress(r)) return void this.infos.set(r.id, runInfo(r));
        if (await this.settle(r.id)) return;
        this.infos.set(r.id, runInfo(r));
        void this.settle(r.id, true).then(() => this.emitRuns());
      }),
    );
  }

  /** Under the run's lock (null: another tab holds it; `wait`: once let go): lists it as stored now, marked interrupted if cut off. */
  private settle(id: string, wait = false): Promise<{ value: void } | null> {
    return underRunLock(
      id,
      async () => {
        const r = await this.persist.read('the run', (db) => db.getRun(id));
        if (r === null || this.recording.has(id)) return;
        if (!r) return void this.infos.delete(id);
        if (inProgress(r)) {
          r.state = 'interrupted';
          r.ended = true;
          await this.persist.save('the run', (db) => db.saveRun(r));
        }
        this.infos.set(id, runInfo(r));
      },
      wait,
    );
  }

  /** Records a run (new or resumed) and lists it. */
  recorder(record: StoredRun): RunRecorder {
    this.recording.add(record.id);
    const r = new RunRecorder(record, this.persist, (info) => {
      this.infos.set(info.id, info);
      this.emitRuns();
    });
    this.infos.set(r.id, r.info);
    this.emitRuns();
    return r;
  }

  /** A run to resume: its lock (the caller releases it when the run ends), then its record and checkpoint as stored under it. */
  async takeForResume(id: string): Promise<{ record: StoredRun; checkpoint: RunCheckpoint; release: () => void }> {
    const release = await lockRun(id);
    if (!release) throw new Error('This run is training in another tab of the app: resume it there, or close that tab first.');
    try {
      const [record, checkpoint] = await Promise.all([
        this.persist.read('the run', (db) => db.getRun(id)),
        this.persist.read('its checkpoint', (db) => db.getCheckpoint(id)),
      ]);
      if (!record || !checkpoint)
        throw new Error('This run has no saved checkpoint to resume from (none was stored before it ended, or storage is unavailable).');
      return { record, checkpoint, release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /** `inProgress`: the run this tab is training, if any. The list changes only once storage has. */
  async deleteRun(id: string, inProgress: string | null): Promise<void> {
    if (inProgress === id) throw new Error('This run is in progress: stop it before deleting it.');
    const done = await underRunLock(id, () => this.persist.change('delete the run', (db) => db.deleteRun(id)));
    if (!done) throw new Error('This run is training in another tab of the app: stop it there before deleting it.');
    this.infos.delete(id);
    this.emitRuns();
  }

  async deleteCheckpoint(id: string, inProgress: string | null): Promise<void> {
    if (inProgress === id) throw new Error('This run is in progress: stop it before deleting its checkpoint.');
    let cleared = null as StoredRun | null;
    const done = await underRunLock(id, () =>
      this.persist.change('delete the checkpoint', async (db) => {
        const record = await db.getRun(id);
        if (!record) throw new Error('this run is no longer stored');
        record.checkpointStep = 0;
        await db.deleteCheckpoint(record);
        cleared = record;
      }),
    );
    if (!done) throw new Error('This run is training in another tab of the app: stop it there first.');
    if (cleared) this.infos.set(id, runInfo(cleared));
    this.emitRuns();
  }

  /** Frees a stored tokenization; data loaded from it stays in memory, and its file can be loaded again. */
  async deleteDataset(key: string): Promise<void> {
    await this.persist.change('delete the dataset', (db) => db.deleteDataset(key));
    await this.emitDatasets();
  }

  async history(id: string): Promise<void> {
    const record = await this.persist.read('the run', (db) => db.getRun(id));
    if (!record) throw new Error('This run is no longer stored.');
    const every = Math.max(1, Math.ceil(record.points.length / HISTORY_POINTS));
    const loss = record.points.filter((_, i) => i % every === 0 || i === record.points.length - 1).map((p): [number, number] => [p.step, p.smoothed]);
    const valBestOfN = record.evaluations.map((e): [number, number] => [e.step, e.summary.bestOfN]);
    this.emit({ type: 'runHistory', runId: id, loss, valBestOfN });
  }

  async emitDatasets(): Promise<void> {
    const datasets = (await this.persist.read('the stored datasets', (db) => db.listDatasets())) ?? [];
    this.emit({ type: 'storedDatasets', datasets: datasets.sort((a, b) => b.savedAt - a.savedAt) });
  }

  emitRuns(): void {
    const runs = [...this.infos.values()].sort((a, b) => b.createdAt - a.createdAt);
    this.emit({ type: 'runs', runs });
  }
}

/** A stored state that says the run is in progress (a stopped run is 'paused' and ended). */
function inProgress(r: StoredRun): boolean {
  return r.state === 'running' || (r.state === 'paused' && !r.ended);
}
