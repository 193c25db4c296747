import type { RunCheckpoint } from '../engine/train/checkpoint.ts';
import type { SavedRunInfo, WorkerEvent } from './protocol.ts';
import { RunRecorder, runInfo } from './runRecorder.ts';
import type { StoredRun } from './storage/db.ts';
import type { Persister } from './storage/persister.ts';
import { lockRun, runsLockedNow } from './storage/runLocks.ts';

/** A run's loss curve is thinned to about this many points for comparisons. */
const HISTORY_POINTS = 400;

/** The runs and datasets kept in this browser, as the worker lists, records, hands out and deletes them. */
export class SavedRuns {
  private readonly infos = new Map<string, SavedRunInfo>();

  constructor(
    private readonly persist: Persister,
    private readonly emit: (event: WorkerEvent) => void,
  ) {}

  /** Reads the stored runs; one still marked running or paused, and held by no other tab, was cut off with its page. */
  async load(): Promise<void> {
    const runs = (await this.persist.read('the saved runs', (db) => db.listRuns())) ?? [];
    const elsewhere = await runsLockedNow();
    for (const r of runs) {
      if ((r.state === 'running' || r.state === 'paused') && !elsewhere.has(r.id)) {
        r.state = 'interrupted';
        this.persist.write('the run', (db) => db.putRun(r));
      }
      this.infos.set(r.id, runInfo(r));
    }
  }

  /** Records a run (new or resumed) and lists it. */
  recorder(record: StoredRun): RunRecorder {
    const r = new RunRecorder(record, this.persist, (info) => {
      this.infos.set(info.id, info);
      this.emitRuns();
    });
    this.infos.set(r.id, r.info);
    this.emitRuns();
    return r;
  }

  /** A run to resume: its record, its checkpoint and its lock (the caller releases it when the run ends). */
  async takeForResume(id: string): Promise<{ record: StoredRun; checkpoint: RunCheckpoint; release: () => void }> {
    const [record, checkpoint] = await Promise.all([
      this.persist.read('the run', (db) => db.getRun(id)),
      this.persist.read('its checkpoint', (db) => db.getCheckpoint(id)),
    ]);
    if (!record || !checkpoint) throw new Error('This run has no saved checkpoint to resume from (none was stored before it ended, or storage is unavailable).');
    const release = await lockRun(id);
    if (!release) throw new Error('This run is training in another tab of the app: resume it there, or close that tab first.');
    return { record, checkpoint, release };
  }

  /** `inProgress`: the run this tab is training, if any. */
  async deleteRun(id: string, inProgress: string | null): Promise<void> {
    if (inProgress === id) throw new Error('This run is in progress: stop it before deleting it.');
    const release = await lockRun(id);
    if (!release) throw new Error('This run is training in another tab of the app: stop it there before deleting it.');
    release();
    await this.persist.read('the run', (db) => db.deleteRun(id));
    this.infos.delete(id);
    this.emitRuns();
  }

  async deleteCheckpoint(id: string, inProgress: string | null): Promise<void> {
    if (inProgress === id) throw new Error('This run is in progress: stop it before deleting its checkpoint.');
    const release = await lockRun(id);
    if (!release) throw new Error('This run is training in another tab of the app: stop it there first.');
    try {
      const record = await this.persist.read('the run', (db) => db.getRun(id));
      if (!record) throw new Error('This run is no longer stored.');
      record.checkpointStep = 0;
      await this.persist.read('the checkpoint', (db) => db.deleteCheckpoint(record));
      this.infos.set(id, runInfo(record));
      this.emitRuns();
    } finally {
      release();
    }
  }

  /** Frees a stored tokenization; data loaded from it stays in memory, and its file can be loaded again. */
  async deleteDataset(key: string): Promise<void> {
    await this.persist.read('the dataset', (db) => db.deleteDataset(key));
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
