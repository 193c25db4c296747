/**
 * What the worker has told the UI, as the engine store holds it (engineStore.ts changes it), and the
 * questions panels ask of it. The store shows what the worker computed; it never derives metrics itself.
 */
import type { CommandType } from '../worker/protocols/commands.ts';
import type { DataRole, DatasetSummary, IngestProgressEvent, StoredDatasetInfo } from '../worker/protocols/data.ts';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import type { EvalReport, EvalSet, InspectFilter, ModelInfo, ModelSlot, RankedCandidate, RerankAnswer, SaliencyTarget } from '../worker/protocols/models.ts';
import type { PicksProgress } from '../worker/protocols/picks.ts';
import type { Estimate, SavedRunInfo, TrainPoint, TrainState } from '../worker/protocols/training.ts';
import type { BackendInfo } from '../worker/backend/backendInfo.ts';
import type { CandidateSaliency } from '../engine/score/explainEnergy.ts';
import type { EngineDown } from '../client/heartbeat.ts';
import { emptyEvalSeries, emptyTrainSeries, type EvalSeries, type TrainSeries } from './series.ts';

export type DataStatus = 'empty' | 'loading' | 'ready' | 'error';

export interface DataSlot {
  /** 'ready' while a summary is shown, even if a later load failed (the worker keeps the old data). */
  status: DataStatus;
  summary: DatasetSummary | null;
  progress: IngestProgressEvent | null;
  /** Message of the last failed load of this role, cleared by the next successful one. */
  lastError: string | null;
  /** What the worker said about the data outside a load (after a reload: the file loaded last is not the one back), cleared by the next load. */
  note: string | null;
}

export interface ErrorBanner {
  id: number;
  command: CommandType | null;
  message: string;
  /** A failed load's role: a later successful load of that role takes the banner down. */
  role?: DataRole;
}

export interface LogEntry {
  id: number;
  level: 'info' | 'warn';
  message: string;
}

export interface TrainStatus {
  state: TrainState;
  step: number;
  epoch: number;
  totalSteps: number;
  totalEpochs: number;
  message: string | null;
}

export type Throughput = Omit<Extract<WorkerEvent, { type: 'progress' }>, 'type'>;
export type Completion = Omit<Extract<WorkerEvent, { type: 'complete' }>, 'type'>;
export type BestCheckpoint = Omit<Extract<WorkerEvent, { type: 'checkpoint' }>, 'type' | 'slot'>;

/**
 * The model a result was computed with: its slot, and that slot's entry in the models list when the
 * result arrived. The worker answers only while the model it used is still the selected one in its slot.
 */
export interface ResultModel {
  slot: ModelSlot;
  info: ModelInfo | null;
}

/**
 * The result's model is no longer in its slot: the slot's entry changed (a new run, a new best
 * checkpoint, another import, a new validation of the model in training) or the slot is empty.
 */
export function isStale(model: ResultModel, available: ModelInfo[]): boolean {
  const now = available.find((m) => m.slot === model.slot);
  return !now || JSON.stringify(now) !== JSON.stringify(model.info);
}

/**
 * The evaluation whose first group Inspect should ask for: one of `set` (the set Inspect is on) by the
 * selected model, while Inspect shows no group and has none on the way; never while a run trains (it
 * would race the steps). Null otherwise. The report itself, so that a panel asks once per evaluation.
 */
export function firstGroupToShow(s: EngineState, set: EvalSet): EvalReport | null {
  const latest = s.latestEval[set];
  if (!latest || s.inspect !== null || s.pending.inspect || s.engineDown) return null;
  if (s.run.status.state === 'compiling' || s.run.status.state === 'training') return null;
  return latest.report.modelSlot === s.models.active ? latest.report : null;
}

/**
 * The latest evaluation of the selected model (the eval-summary's): of the set evaluated last when it is
 * that model's, else of the other set; null when neither describes the selected model.
 */
/** What `scoresEvaluated` brings: the file, its field, and its report. */
export type ScoresEvaluation = Omit<Extract<WorkerEvent, { type: 'scoresEvaluated' }>, 'type'>;

export function selectedModelEval(s: Pick<EngineState, 'latestEval' | 'lastEvalSet' | 'models'>): LatestEval | null {
  const active = s.models.active;
  if (active === null) return null;
  const order: EvalSet[] = s.lastEvalSet === 'test' ? ['test', 'val'] : ['val', 'test'];
  for (const set of order) {
    const latest = s.latestEval[set];
    if (latest && latest.report.modelSlot === active) return latest;
  }
  return null;
}

export interface InspectView {
  /** null only if a reply came before any models list (the worker always sends that first). */
  model: ResultModel | null;
  set: EvalSet;
  filter: InspectFilter;
  position: number;
  matching: number;
  groupIndex: number;
  question: string;
  candidates: RankedCandidate[];
}

export interface RerankView {
  model: ResultModel;
  question: string;
  candidates: RankedCandidate[];
  /** The candidates grouped by final answer, with the vote's probability at the model's temperature. */
  answers: RerankAnswer[];
  temperature: number;
  temperatureSource: string;
}

/** "Why this energy?": the candidate asked for last, and the worker's answer once it came (null until then). */
export interface SaliencyView {
  target: SaliencyTarget;
  question: string;
  text: string;
  /** Reduced texts scored so far while it computes. */
  progress: { done: number; total: number } | null;
  result: (CandidateSaliency & { model: ResultModel }) | null;
}

/** A report and whether the training loop sent it (else it answers an `evaluate` of the selected model). */
export interface LatestEval {
  report: EvalReport;
  duringRun: boolean;
  model: ResultModel;
}

/** What belongs to one training run; replaced wholesale when the next run starts. */
export interface RunView {
  status: TrainStatus;
  throughput: Throughput | null;
  /** Per-step points, appended in place (see series.ts); `seriesVersion` says when they grew. */
  series: TrainSeries;
  seriesVersion: number;
  lastPoint: TrainPoint | null;
  /** Validation reports of this run, appended in place; `valVersion` says when they grew. */
  valSeries: EvalSeries;
  valVersion: number;
  /** epochTrainLoss of each finished epoch, in epoch order. */
  epochLosses: number[];
  /** Epoch of the last entry in epochLosses (guards against a second report for the same epoch). */
  lastLossEpoch: number;
  bestValBestOfN: number | null;
  bestCheckpoint: BestCheckpoint | null;
  completion: Completion | null;
}

export interface EngineState {
  backend: BackendInfo | null;
  hardwareConcurrency: number | null;
  errors: ErrorBanner[];
  log: LogEntry[];
  data: Record<DataRole, DataSlot>;
  /** Role of the most recent loadData: an `error` event names the command but not the role. */
  lastLoadRole: DataRole | null;
  estimate: Estimate | null;
  run: RunView;
  /** Latest report per set, for the headline numbers and the N-curve / histogram charts. */
  latestEval: Record<EvalSet, LatestEval | null>;
  /** The last evaluation of scores a file brings (no model); null before one. */
  scores: ScoresEvaluation | null;
  /** Set of the most recent report of any set: the N-curve and histogram charts show that one. */
  lastEvalSet: EvalSet | null;
  models: { active: ModelSlot | null; available: ModelInfo[] };
  inspect: InspectView | null;
  rerank: RerankView | null;
  saliency: SaliencyView | null;
  /** The last picks run's progress (Pick answers), null before one. */
  picks: PicksProgress | null;
  /** An evaluation under way: candidates scored so far (cleared by its report). */
  evalProgress: { set: EvalSet; done: number; total: number } | null;
  /** Requests sent and not yet answered (by their reply event or an error naming the command). */
  pending: Partial<Record<CommandType, boolean>>;
  /** Runs saved in this browser, newest first; null until the worker has restored what was stored. */
  savedRuns: SavedRunInfo[] | null;
  /** Tokenized files kept in this browser, newest first. */
  storedDatasets: StoredDatasetInfo[];
  /** Curves of saved runs asked for (to compare them), by run id. */
  runHistories: Record<string, RunHistory>;
  /** The engine worker died or hung (see client/heartbeat.ts): nothing more will come from it until a restart. */
  engineDown: EngineDown | null;
}

export type RunHistory = Omit<Extract<WorkerEvent, { type: 'runHistory' }>, 'type' | 'runId'>;

const emptySlot = (): DataSlot => ({ status: 'empty', summary: null, progress: null, lastError: null, note: null });

/** A run before any of its events; a new run starts from this, with its first status. */
export function emptyRun(status?: Partial<TrainStatus>): RunView {
  return {
    status: { state: 'idle', step: 0, epoch: 0, totalSteps: 0, totalEpochs: 0, message: null, ...status },
    throughput: null,
    series: emptyTrainSeries(),
    seriesVersion: 0,
    lastPoint: null,
    valSeries: emptyEvalSeries(),
    valVersion: 0,
    epochLosses: [],
    lastLossEpoch: 0,
    bestValBestOfN: null,
    bestCheckpoint: null,
    completion: null,
  };
}

export function initialEngineState(): EngineState {
  return {
    backend: null,
    hardwareConcurrency: null,
    errors: [],
    log: [],
    data: { train: emptySlot(), test: emptySlot() },
    lastLoadRole: null,
    estimate: null,
    run: emptyRun(),
    latestEval: { val: null, test: null },
    scores: null,
    lastEvalSet: null,
    models: { active: null, available: [] },
    inspect: null,
    rerank: null,
    saliency: null,
    picks: null,
    evalProgress: null,
    pending: {},
    savedRuns: null,
    storedDatasets: [],
    runHistories: {},
    engineDown: null,
  };
}

const ACTIVE_STATES: ReadonlySet<TrainState> = new Set<TrainState>(['compiling', 'training', 'paused']);

/** A run exists: compiling, training or paused. */
export const isRunActive = (state: TrainState): boolean => ACTIVE_STATES.has(state);
