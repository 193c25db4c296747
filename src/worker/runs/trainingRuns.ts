import { shortHash } from '../../engine/data/splitRecord.ts';
import { recordedShape, storedRunSplit } from '../../engine/data/olderRecords.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import { type Params, initParams, paramsFromArrays } from '../../engine/model/params.ts';
import { activeProfile } from '../../engine/backend/profile.ts';
import { autoMicroBatch } from '../../engine/model/autoMicroBatch.ts';
import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import { estimateMemory } from '../../engine/train/estimate.ts';
import { runTraining } from '../../engine/train/loop.ts';
import { RunControl } from '../../engine/train/runControl.ts';
import type { StepPeer } from '../../engine/train/step/stepPeer.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../../engine/train/settings.ts';
import { groupsPerStep, totalSteps } from '../../engine/train/stepCount.ts';
import type { BackendInfo } from '../backend/backend.ts';
import { continueFrom } from './continueFrom.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { Datasets } from '../data/datasets.ts';
import type { EvaluationCache } from '../models/evaluationCache.ts';
import type { ModelSlots } from '../models/modelSlots.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import { RunEvents } from './runEvents.ts';
import { passBudget, runInputs, runModelConfig } from './runInputs.ts';
import type { RunRecorder } from './runRecorder.ts';
import { type ExportableRun, exportRunFile } from './runExportFile.ts';
import { runValidated, splitOf } from './runValidation.ts';
import type { SavedRuns } from './savedRuns.ts';
import type { StoredRun } from '../storage/db.ts';
import { contentHashOfKey } from '../storage/datasetKey.ts';
import type { Persister } from '../storage/persister.ts';
import { lockRun } from '../storage/runLocks.ts';

/** What the run lifecycle reads and writes besides its own state. */
export interface RunDeps {
  emit: (event: WorkerEvent) => void;
  datasets: Datasets;
  models: ModelSlots;
  cache: EvaluationCache;
  saved: SavedRuns;
  persist: Persister;
  backend: () => BackendInfo | null;
  scoringPeers: () => ReadonlyArray<StepPeer>;
  /** Sends the model slots to the UI. */
  emitModels: () => void;
}

/** The run in progress. */
interface ActiveRun {
  control: RunControl;
  runId: string;
  /** Lets the run go (its device is lost): listed as interrupted, its lock released, its loop no longer heard. */
  abandon(message: string): void;
}

/**
 * The training run: the memory estimate for its settings, start, resume from a saved checkpoint, pause,
 * stop, and its record in storage. At most one run is in progress; it trains the latest model slot.
 */
export class TrainingRuns {
  private run: ActiveRun | null = null;
  private stepsTaken = 0;
  private lastRun: ExportableRun | null = null;
  private current: TrainSettings = DEFAULT_TRAIN_SETTINGS;

  constructor(private readonly deps: RunDeps) {}

  /** A run is in progress (training, compiling or paused). */
  isTraining(): boolean {
    return this.run !== null;
  }

  /** The id of the run in progress, if any. */
  get runId(): string | null {
    return this.run?.runId ?? null;
  }

  /** Optimizer steps applied to the latest model since it was created (as far as reported): tells whether a cached evaluation is stale. */
  get latestStep(): number {
    return this.stepsTaken;
  }

  /**
   * The settings in force: the form's as last sent (estimate, start), or those of the run resumed. Loads
   * split with their seed, summaries judge lengths by their maxLen (see Datasets).
   */
  get settings(): TrainSettings {
    return this.current;
  }

  /** Export run: the current (or last) run of this session as metrics.jsonl. */
  exportRun(): void {
    exportRunFile(this.lastRun, this.deps.emit);
  }

  /** The pause, resume and stop of the run in progress. */
  control(): RunControl {
    if (!this.run) throw new Error('No training is running.');
    return this.run.control;
  }

  /**
   * The GPU is gone: a run on it can neither step nor stop cleanly, so it is let go (listed as
   * interrupted, its lock released) and the user is told how to go on from its last checkpoint.
   */
  deviceLost(message: string): void {
    const run = this.run;
    if (!run) {
      this.deps.emit({
        type: 'error',
        command: null,
        message: `${message} Choose another backend in the header (or reload the page); an interrupted run can be resumed from its last checkpoint under Saved runs.`,
      });
      return;
    }
    run.abandon(message);
  }

  estimate(settings: TrainSettings): void {
    const { datasets } = this.deps;
    // An evaluation's selector read the fields named then: another choice makes the next Evaluate fit it again.
    if ((settings.selectorFields ?? []).join('\n') !== (this.current.selectorFields ?? []).join('\n')) this.deps.cache.clear();
    this.current = settings;
    const cfg = runModelConfig(settings);
    const data = datasets.get('train');
    const largestGroup = data ? data.dataset.groups.reduce((m, g) => Math.max(m, g.candidates.length), 0) : 4;
    const perStep = largestGroup * groupsPerStep(settings);
    const perPass =
      settings.microBatch > 0 ? settings.microBatch : (autoMicroBatch(cfg, perStep, cfg.maxLen, passBudget(activeProfile(), this.deps.backend())) ?? perStep);
    const adapter = this.deps.backend()?.adapter ?? null;
    const e = estimateMemory(cfg, perPass, perPass < perStep, adapter);
    this.deps.emit({
      type: 'estimate',
      estimate: { params: e.params, trainingBytes: e.trainingBytes, largestBufferBytes: e.largestBufferBytes, warnings: e.warnings },
    });
    datasets.refreshSummaries();
  }

  start(settings: TrainSettings): void {
    if (this.run) throw new Error('Training is already running: pause or stop it first.');
    const { datasets } = this.deps;
    const loaded = datasets.require('train');
    this.current = settings;
    const from = settings.init === 'continue' ? continueFrom(this.deps.models, loaded, settings.seed, this.deps.emit) : null;
    const cfg = from?.cfg ?? runModelConfig(settings);
    const params = from?.params ?? initParams(cfg, settings.seed);
    const data = datasets.withSplit(loaded, from?.split.seed ?? settings.seed, from?.split.trainFraction, from?.split.kind ? recordedShape(from.split) : {});
    const record: StoredRun = {
      id: crypto.randomUUID(),
      createdAt: Date.now(),
      settings,
      cfg,
      datasetKey: data.key ?? '',
      datasetName: data.name,
      splitSeed: data.splitSeed,
      split: splitOf(data),
      totalSteps: totalSteps(data.split.train.length, settings),
      state: 'running',
      checkpointStep: 0,
      points: [],
      evaluations: [],
      bestValBestOfN: null,
    };
    this.deps.persist.write('the run', (db) => db.putRun(record));
    const lock = lockRun(record.id);
    this.launch(settings, cfg, params, data, this.deps.saved.recorder(record), null, () => void lock.then((release) => release?.()));
  }

  /** Continues a saved run from its last checkpoint, on its own data (restored from storage when another file is loaded). */
  async resume(id: string): Promise<void> {
    if (this.run) throw new Error('Training is already running: stop it before resuming another run.');
    const { record, checkpoint, release } = await this.deps.saved.takeForResume(id);
    try {
      await this.resumeLocked(record, checkpoint, release);
    } catch (e) {
      release();
      throw e;
    }
  }

  private async resumeLocked(record: StoredRun, checkpoint: RunCheckpoint, release: () => void): Promise<void> {
    const { datasets, emit } = this.deps;
    let data = datasets.get('train');
    if (!data || data.key !== record.datasetKey) {
      const file = contentHashOfKey(record.datasetKey);
      const stored = file === null ? null : await this.deps.persist.read('its dataset', (db) => db.getDataset(record.datasetKey));
      if (this.run) throw new Error('Training started meanwhile: stop it before resuming another run.');
      if (stored) {
        data = datasets.installTrain(record.datasetKey, stored, record.splitSeed);
      } else if (file === null) {
        throw new Error(
          `This run on ${record.datasetName} began before every training file was given an identity (files over 256 MB had none), so the file it trained on cannot be checked and the run cannot be resumed. Start a new run on that file instead.`,
        );
      } else if (data?.contentHash !== file) {
        throw new Error(
          `The file this run trained on (${record.datasetName}, ${shortHash(file)}) is not loaded, and not stored in this browser (files over 256 MB never are): load ${record.datasetName} again, then resume.`,
        );
      } else {
        // The same bytes, read by an older app's rules (or another token cap) when the run began.
        emit({
          type: 'log',
          level: 'warn',
          message: `${record.datasetName} was read with an older version of the app's reading rules when this run began: it resumes on the file as read now, so its tokens or its split may differ slightly from what it trained on.`,
        });
      }
    }
    if (this.run) throw new Error('Training started meanwhile: stop it before resuming another run.');
    data = datasets.withSplit(data, record.splitSeed, storedRunSplit(record, null).trainFraction, recordedShape(record.split));
    this.current = record.settings;
    record.points = record.points.filter((p) => p.step < checkpoint.step);
    record.evaluations = record.evaluations.filter((e) => e.step <= checkpoint.step);
    emit({
      type: 'log',
      level: 'info',
      message: `Resuming the run on ${record.datasetName} from its checkpoint at step ${checkpoint.step} of ${record.totalSteps}.`,
    });
    const recorder = this.deps.saved.recorder(record);
    recorder.resumed();
    this.launch(record.settings, record.cfg, paramsFromArrays(record.cfg, checkpoint.params), data, recorder, checkpoint, release);
  }

  /** `ended` runs once the run is over, whatever the outcome (it releases the run's lock). */
  private launch(
    settings: TrainSettings,
    cfg: ModelConfig,
    params: Params,
    data: LoadedData,
    recorder: RunRecorder,
    resume: RunCheckpoint | null,
    ended: () => void,
  ): void {
    const { emit, emitModels } = this.deps;
    this.installLatest(cfg, params, data, resume?.step ?? 0);
    const control = new RunControl();
    const exportable: ExportableRun = {
      recorder,
      settings,
      cfg,
      data,
      split: splitOf(data),
      device: this.deps.backend()?.backend ?? 'unknown',
      startedAt: performance.now(),
      skippedSteps: 0,
      end: null,
    };
    this.lastRun = exportable;
    const events = new RunEvents({
      emit,
      recorder,
      exportable,
      totalSteps: totalSteps(data.split.train.length, settings),
      totalEpochs: settings.epochs,
      steps: { get: () => this.stepsTaken, set: (steps) => void (this.stepsTaken = steps) },
      validated: (e) => runValidated(this.deps, e, settings, data, cfg, recorder),
      cleared: () => void (this.run = null),
      ended,
      emitModels,
    });
    this.run = { control, runId: recorder.id, abandon: (message) => events.abandon(message) };
    // Runs in the background: pause/resume/stop commands arrive while it awaits the GPU.
    // The backend's profile, taken once for the run: its steps, scoring and pass budget.
    void runTraining(runInputs(settings, cfg, params, data, resume, activeProfile(), this.deps.backend(), this.deps.scoringPeers()), events.listener(), control)
      .then((r) => events.finished(r))
      .catch((err: unknown) => events.failed(err))
      .finally(() => events.over());
    // runTraining reported 'compiling' before its first await, which cleared the curves: a resumed run's history comes back now.
    if (resume) {
      const { points, evaluations } = recorder.history;
      if (points.length > 0) emit({ type: 'metrics', points });
      for (const report of evaluations) emit({ type: 'evaluation', report });
    }
  }

  /** The model the run trains, in the latest slot and selected, with `step` steps taken. */
  private installLatest(cfg: ModelConfig, params: Params, data: LoadedData, step: number): void {
    const { models } = this.deps;
    this.deps.datasets.refreshSummaries();
    models.clearTrained();
    models.set('latest', {
      cfg,
      params,
      source: 'trained',
      description: 'training…',
      warnings: [],
      training: { splitSeed: data.splitSeed, split: splitOf(data) },
    });
    models.active = 'latest';
    this.stepsTaken = step;
    this.deps.cache.clear();
    this.deps.emitModels();
  }
}
