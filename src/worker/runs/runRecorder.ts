import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import type { TrainPoint } from '../../engine/train/loop.ts';
import type { EvalReport } from '../protocols/models.ts';
import type { SavedRunInfo, SavedRunState } from '../protocols/training.ts';
import { runFacts } from './runFacts.ts';
import type { StoredRun } from '../storage/db.ts';
import type { Persister } from '../storage/persister.ts';

/** Keeps one run's record (settings, history, state, checkpoint) in memory and in the browser's storage. */
export class RunRecorder {
  constructor(
    private readonly run: StoredRun,
    private readonly persist: Persister,
    /** Told whenever the listed figures change, so the runs list can be re-sent. */
    private readonly changed: (info: SavedRunInfo) => void,
  ) {}

  get id(): string {
    return this.run.id;
  }

  /** What it has recorded so far: a resumed run's curves start from it. */
  get history(): { points: TrainPoint[]; evaluations: EvalReport[] } {
    return { points: [...this.run.points], evaluations: [...this.run.evaluations] };
  }

  get info(): SavedRunInfo {
    return runInfo(this.run);
  }

  points(points: TrainPoint[]): void {
    for (const p of points) this.run.points.push(p);
  }

  evaluation(report: EvalReport): void {
    this.run.evaluations.push(report);
    if (report.isBest) this.run.bestValBestOfN = report.summary.bestOfN;
  }

  /**
   * Stores the checkpoint with the history up to it (later points are replayed by the resumed run). The
   * listed checkpoint step moves once the write is committed: only a stored checkpoint can be resumed.
   */
  checkpoint(c: RunCheckpoint): void {
    const record = {
      ...this.snapshot(
        (p) => p.step < c.step,
        (e) => e.step <= c.step,
      ),
      checkpointStep: c.step,
    };
    this.persist.write(
      `the checkpoint at step ${c.step}`,
      (db) => db.putCheckpoint(record, c),
      () => {
        this.run.checkpointStep = Math.max(this.run.checkpointStep, c.step);
        this.changed(this.info);
      },
    );
  }

  /** A state change while the run goes on (training, paused). */
  setState(state: SavedRunState): void {
    if (this.run.state === state && !this.run.ended) return;
    this.store(state, false);
  }

  /** Resumed: stored as running at once, so that other tabs (and a reload) no longer list it paused or interrupted. */
  resumed(): void {
    this.store('running', false);
  }

  /** The run's loop is over: 'done', 'paused' (stopped: still paused after a reload) or 'interrupted'. */
  end(state: SavedRunState): void {
    this.store(state, true);
  }

  /** Writes state and history; the stored checkpoint step is kept as storage has it (see StudioDb.saveRun). */
  private store(state: SavedRunState, ended: boolean): void {
    this.run.state = state;
    this.run.ended = ended;
    const record = this.snapshot(
      () => true,
      () => true,
    );
    this.persist.write('the run', (db) => db.saveRun(record));
    this.changed(this.info);
  }

  /** A copy to store: storage clones it later, when the history has grown. */
  private snapshot(point: (p: TrainPoint) => boolean, evaluation: (e: EvalReport) => boolean): StoredRun {
    return { ...this.run, points: this.run.points.filter(point), evaluations: this.run.evaluations.filter(evaluation) };
  }
}

export function runInfo(r: StoredRun): SavedRunInfo {
  return {
    id: r.id,
    createdAt: r.createdAt,
    datasetName: r.datasetName,
    settings: r.settings,
    ...runFacts(r),
    state: r.state,
    checkpointStep: r.checkpointStep,
    totalSteps: r.totalSteps,
    lastLoss: r.points.at(-1)?.smoothed ?? null,
    bestValBestOfN: r.bestValBestOfN,
  };
}
