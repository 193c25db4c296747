import { evaluateScores } from './models/scoreQueries.ts';
import type { TokenizePool } from '../engine/data/tokenize/tokenizePool.ts';
import type { StepPeer } from '../engine/train/step/stepPeer.ts';
import type { BackendInfo } from './backend/backend.ts';
import { Datasets } from './data/datasets.ts';
import { EvaluationCache, setOf } from './models/evaluationCache.ts';
import { ModelQueries } from './models/modelQueries.ts';
import { ModelSlots } from './models/modelSlots.ts';
import type { Command } from './protocols/commands.ts';
import type { WorkerEvent } from './protocols/events.ts';
import { SavedRuns } from './runs/savedRuns.ts';
import { Persister } from './storage/persister.ts';
import { TrainingRuns } from './runs/trainingRuns.ts';
import { PicksJournal } from './runs/picksJournal.ts';
import { PicksRuns } from './runs/picksRuns.ts';

type Emit = (event: WorkerEvent, transfer?: Transferable[]) => void;

/**
 * Everything the worker holds, by job: the loaded data sets, the training run, the queries of the
 * selected model, and the runs and data sets saved in this browser. Session only hands each command to
 * the one that owns it. Each command handler either finishes or throws; a throw becomes an `error`
 * event and leaves the state as it was.
 */
export class Session {
  private readonly saved: SavedRuns;
  private readonly datasets: Datasets;
  private readonly runs: TrainingRuns;
  private readonly queries: ModelQueries;
  private readonly picks: PicksRuns;
  private readonly emit: Emit;

  constructor(
    emit: Emit,
    pool: () => TokenizePool,
    backend: () => BackendInfo | null,
    persist: Persister = new Persister(Promise.resolve(null), () => undefined),
    /** Other threads that score batches too (the WASM backend's idle cores); none in tests. */
    scoringPeers: () => ReadonlyArray<StepPeer> = () => [],
  ) {
    this.emit = emit;
    const models = new ModelSlots();
    const emitModels = () => emit({ type: 'models', active: models.active, available: models.info() });
    this.saved = new SavedRuns(persist, emit);
    this.datasets = new Datasets(
      emit,
      pool,
      persist,
      () => this.runs.isTraining(),
      (role) => cache.forget(setOf(role)),
      () => void this.saved.emitDatasets(),
      () => this.runs.settings,
    );
    const cache = new EvaluationCache(this.datasets, models);
    this.runs = new TrainingRuns({ emit, datasets: this.datasets, models, cache, saved: this.saved, persist, backend, scoringPeers, emitModels });
    this.queries = new ModelQueries({ emit, datasets: this.datasets, models, cache, runs: this.runs, scoringPeers, emitModels });
    this.picks = new PicksRuns({
      emit,
      groupsOf: (set) => {
        const d = set === 'picks' ? this.datasets.picks() : this.datasets.get(set);
        return d ? { name: d.name, groups: 'picks' in d ? d.picks.groups : d.dataset.groups } : null;
      },
      model: () => this.queries.leaseIfAny(),
      pool,
      scoringPeers,
      journal: new PicksJournal(persist),
    });
  }

  /** Files up to this many bytes are kept in storage (tests lower it); larger ones are hashed as they stream, and not kept. */
  get storedMaxBytes(): number {
    return this.datasets.storedMaxBytes;
  }

  set storedMaxBytes(bytes: number) {
    this.datasets.storedMaxBytes = bytes;
  }

  /**
   * At start: lists the saved runs (one still marked running or paused was cut off with its page), brings
   * back the last training file, unless one was loaded meanwhile, and tells a picks run cut off as interrupted.
   */
  async restore(): Promise<void> {
    const untouched = this.datasets.trainUntouched();
    await this.saved.load();
    await this.datasets.recallLastTrain(untouched);
    await this.picks.listInterrupted();
    await this.saved.emitDatasets();
    // Last: the runs list arriving tells the UI that the restore is over.
    this.saved.emitRuns();
  }

  /** The GPU is gone: a run on it is let go, and the user told how to go on. */
  deviceLost(message: string): void {
    this.runs.deviceLost(message);
  }

  /** A run is in progress (training, compiling or paused). */
  isTraining(): boolean {
    return this.runs.isTraining();
  }

  async handle(cmd: Command): Promise<void> {
    switch (cmd.type) {
      case 'init':
      case 'setBackend':
        return; // answered by the worker entry (backend selection)
      case 'loadData':
        return this.datasets.load(cmd.role, cmd.source);
      case 'downloadErrors':
        return this.datasets.downloadErrors(cmd.role, cmd.format);
      case 'estimate':
        return this.runs.estimate(cmd.settings);
      case 'start':
        return this.runs.start(cmd.settings);
      case 'pause':
        return this.runs.control().pause();
      case 'resume':
        return this.runs.control().resume();
      case 'stop':
        return this.runs.control().stop();
      case 'evaluate':
        return this.queries.evaluate(cmd.set);
      case 'evaluateScores':
        return evaluateScores(this.datasets, this.emit, this.runs.settings.seed, cmd);
      case 'inspect':
        return this.queries.inspect(cmd.set, cmd.filter, cmd.position);
      case 'rerank':
        return this.queries.rerank(cmd.question, cmd.candidates);
      case 'saliency':
        return this.queries.saliency(cmd.target, cmd.question, cmd.text);
      case 'selectModel':
        return this.queries.select(cmd.slot);
      case 'export':
        return this.queries.export();
      case 'exportRun':
        return this.runs.exportRun();
      case 'import':
        return this.queries.import(cmd.bytes, cmd.fileName);
      case 'resumeRun':
        return this.runs.resume(cmd.runId);
      case 'deleteRun':
        return this.saved.deleteRun(cmd.runId, this.runs.runId);
      case 'deleteCheckpoint':
        return this.saved.deleteCheckpoint(cmd.runId, this.runs.runId);
      case 'deleteDataset':
        return this.saved.deleteDataset(cmd.key);
      case 'runHistory':
        return this.saved.history(cmd.runId);
      case 'picks':
        return this.picks.start(cmd.set, cmd.rule);
      case 'picksControl':
        return this.picks.controlRun(cmd.action);
      case 'picksDownload':
        return this.picks.download();
    }
  }
}
