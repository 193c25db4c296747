import type { RunEvaluation, RunListener, RunResult } from '../../engine/train/loop.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { ExportableRun } from './runExportFile.ts';
import type { RunRecorder } from './runRecorder.ts';

type TrainState = 'compiling' | 'training' | 'paused' | 'done' | 'error';

/** Where the run in progress reports to. */
export interface RunEventsDeps {
  emit: (event: WorkerEvent) => void;
  recorder: RunRecorder;
  exportable: ExportableRun;
  /** The run's steps and epochs in all, for the UI's progress. */
  totalSteps: number;
  totalEpochs: number;
  /** Optimizer steps applied to the latest model (as far as reported). */
  steps: { get(): number; set(steps: number): void };
  /** A validation during the run (see runValidation.ts). */
  validated(e: RunEvaluation): void;
  /** The run is no longer in progress. */
  cleared(): void;
  /** Runs once the run is over, whatever the outcome (it releases the run's lock). */
  ended(): void;
  emitModels(): void;
}

/**
 * What the run in progress tells, forwarded to its record and to the UI, and how it ends. Once the run is
 * let go (its device lost), whatever its loop still does is no longer reported.
 */
export class RunEvents {
  private abandoned = false;

  constructor(private readonly d: RunEventsDeps) {}

  state(s: TrainState, step: number, epoch: number, message?: string): void {
    this.d.emit({ type: 'trainState', state: s, step, epoch, totalSteps: this.d.totalSteps, totalEpochs: this.d.totalEpochs, message });
  }

  listener(): RunListener {
    const { emit, recorder, exportable, steps } = this.d;
    return {
      state: (s, step, epoch, message) => {
        if (this.abandoned) return;
        if (s !== 'compiling') recorder.setState(s === 'paused' ? 'paused' : 'running');
        this.state(s, step, epoch, message);
      },
      points: (points) => {
        if (this.abandoned) return;
        steps.set(points[points.length - 1].step + 1);
        recorder.points(points);
        emit({ type: 'metrics', points });
      },
      checkpoint: (c) => {
        if (!this.abandoned) recorder.checkpoint(c);
      },
      progress: (p) => {
        exportable.skippedSteps = p.skippedSteps;
        if (!this.abandoned) emit({ type: 'progress', ...p });
      },
      evalProgress: (done, total) => {
        if (!this.abandoned) emit({ type: 'evalProgress', set: 'val', done, total });
      },
      evaluation: (e) => {
        if (!this.abandoned) this.d.validated(e);
      },
    };
  }

  /** The loop returned. A stopped run can be resumed from its last checkpoint, as a paused one. */
  finished(r: RunResult): void {
    if (this.abandoned) return;
    const { emit, recorder, exportable } = this.d;
    recorder.end(r.reason === 'finished' ? 'done' : 'paused');
    this.d.steps.set(r.steps);
    exportable.end = {
      reason: r.reason,
      steps: r.steps,
      skippedSteps: exportable.skippedSteps,
      bestValBestOfN: r.bestValBestOfN,
      seconds: (performance.now() - exportable.startedAt) / 1000,
    };
    this.state('done', r.steps, this.d.totalEpochs);
    emit({ type: 'complete', reason: r.reason, steps: r.steps, bestValBestOfN: r.bestValBestOfN });
  }

  /** The loop threw. */
  failed(err: unknown): void {
    if (this.abandoned) return;
    this.d.recorder.end('interrupted');
    this.state('error', this.d.steps.get(), 0, String((err as Error).message ?? err));
    this.d.emit({ type: 'error', command: 'start', message: `Training stopped: ${(err as Error).message ?? String(err)}` });
  }

  /** After the loop, however it ended. */
  over(): void {
    if (this.abandoned) return;
    this.d.cleared();
    this.d.ended();
    this.d.emitModels();
  }

  /** The run let go (its device lost): listed as interrupted, its lock released, the user told how to go on. */
  abandon(message: string): void {
    const { emit, recorder } = this.d;
    this.abandoned = true;
    this.d.cleared();
    recorder.end('interrupted');
    this.d.ended();
    const saved = recorder.info.checkpointStep;
    const steps = this.d.steps.get();
    this.state('error', steps, 0, message);
    emit({
      type: 'error',
      command: null,
      message: `${message} Training stopped at step ${steps}. ${
        saved > 0
          ? `Its last checkpoint (step ${saved}) is saved: choose another backend in the header (or reload the page), then Resume it under Saved runs.`
          : 'No checkpoint of it was saved yet.'
      }`,
    });
    this.d.emitModels();
  }
}
