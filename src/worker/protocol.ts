/**
 * The typed message protocol between the UI thread and the engine worker: every command the UI can
 * send and every event the worker can emit, in one place. Large buffers (files, weights) travel as
 * transferables. Types only: no code runs from this file.
 */
import type { DatasetStats, TokenLengthStats } from '../engine/data/stats.ts';
import type { DataFormat, LabelsFrom, LineErrorKind } from '../engine/data/types.ts';
import type { SourceRow as DataSourceRow } from '../engine/data/sourceRows.ts';
import type { EnergyHistogram } from '../engine/metrics/histogram.ts';
import type { EvalSummary } from '../engine/metrics/summary.ts';
import type { SplitKind } from '../engine/data/split.ts';
import type { HeldOutNote } from '../engine/data/heldOutNote.ts';
import type { SelectionReport, SourceRow } from '../engine/metrics/selectionTypes.ts';
import type { RunProgress, TrainPoint } from '../engine/train/loop.ts';
import type { CandidateSaliency } from '../engine/score/explainEnergy.ts';
import type { NCurveRow } from '../engine/metrics/ncurve.ts';
import type { ModelSettings, PresetName, TrainSettings } from '../engine/train/settings.ts';
import type { BackendChoice, BackendInfo } from './backendInfo.ts';
import type { EngineCounters } from './counters.ts';
import type { ReplayProfile } from '../engine/kernels/webgpu/replay/stepReplay.ts';
import type { PickRule, PickRuleChoice } from '../engine/score/picksRule.ts';

export type DataRole = 'train' | 'test';
/** Which model Inspect, Rerank and Export use. */
export type ModelSlot = 'latest' | 'best' | 'imported';
export type EvalSet = 'val' | 'test';
export type TrainState = 'idle' | 'compiling' | 'training' | 'paused' | 'done' | 'error';
export type { ModelSettings, PresetName, RunProgress, TrainPoint, TrainSettings };

/** `files`: several files dropped together, read as one dataset (formats/readFiles.ts). */
export type DataSource = { kind: 'file'; file: File } | { kind: 'files'; files: File[] } | { kind: 'url'; url: string; name: string };

export type Command =
  /**
   * `backend`: 'auto' (default) probes the browser's backends and takes the fastest; a name asks for one.
   * `tokenizerWorkers` overrides the pool size (default: spare cores, at most 4); benchmarks compare sizes.
   * `scoringWorkers` overrides the number of scoring workers on WASM (default: idle cores, at most 3; 0: none).
   */
  | { type: 'init'; backend?: BackendChoice; tokenizerWorkers?: number; scoringWorkers?: number }
  /** Switches the engine's backend between commands (refused while training). */
  | { type: 'setBackend'; backend: BackendChoice }
  /**
   * Benchmarks: installs the work counters (first time) and answers with their totals. `replay: false`
   * turns WebGPU's step replay off for this engine (the bench's figures without it); `profile: true` adds
   * where a replayed step's GPU time goes (it runs the step's kernels again: ask at the end of a run).
   */
  | { type: 'counters'; replay?: boolean; profile?: boolean }
  /** Browser tests: destroys the WebGPU device, as a lost device (driver reset) would. */
  | { type: 'destroyDevice' }
  /** The UI's heartbeat: answered at once with `pong`, ahead of any queued command (see client/heartbeat.ts). */
  | { type: 'ping' }
  | { type: 'loadData'; role: DataRole; source: DataSource }
  | { type: 'downloadErrors'; role: DataRole; format: 'text' | 'csv' | 'jsonl' }
  | { type: 'estimate'; settings: TrainSettings }
  | { type: 'start'; settings: TrainSettings }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'stop' }
  | { type: 'evaluate'; set: EvalSet }
  | { type: 'inspect'; set: EvalSet; filter: InspectFilter; position: number }
  | { type: 'rerank'; question: string; candidates: string }
  /** "Why this energy?": the energy change when each step, then each token, of one candidate's answer is deleted (one candidate per command). */
  | { type: 'saliency'; target: SaliencyTarget; question: string; text: string }
  | { type: 'selectModel'; slot: ModelSlot }
  | { type: 'export' }
  /** The current (or last) run of this session as metrics.jsonl, in the records `eorm.train` writes. */
  | { type: 'exportRun' }
  | { type: 'import'; bytes: ArrayBuffer; fileName: string }
  /** Continues a saved run from its last checkpoint (its dataset restored from storage if needed). */
  | { type: 'resumeRun'; runId: string }
  | { type: 'deleteRun'; runId: string }
  /** Frees a run's checkpoint, keeping its record and curves. */
  | { type: 'deleteCheckpoint'; runId: string }
  | { type: 'deleteDataset'; key: string }
  /** A saved run's curves, for comparing runs. */
  | { type: 'runHistory'; runId: string }
  /** Pick answers: the selected model's pick for every question of a set (picks.jsonl), with progress. */
  | { type: 'picks'; set: PicksSource; rule: PickRuleChoice }
  | { type: 'picksControl'; action: 'pause' | 'resume' | 'cancel' }
  /** picks.jsonl as far as it is written. */
  | { type: 'picksDownload' };

export type CommandType = Command['type'];

export type InspectFilter = 'all' | 'top-wrong';

/** What Pick answers reads: the unlabelled file's picks set, or a labelled file (its accuracy reported too). */
export type PicksSource = 'picks' | 'train' | 'test';
export type PicksState = 'running' | 'paused' | 'done' | 'cancelled' | 'error';
export type { PickRule, PickRuleChoice };

/** Where a picks run stands: questions done of total, speed and time left (null until measurable). */
export interface PicksProgress {
  state: PicksState;
  set: PicksSource;
  dataName: string;
  modelSlot: ModelSlot;
  rule: PickRule;
  done: number;
  total: number;
  questionsPerSecond: number | null;
  etaSeconds: number | null;
  /** Questions with labels so far, and the share of them picked right (null without labels). */
  labelled: number;
  accuracy: number | null;
  message?: string;
}

/** The candidate a saliency is asked for: its view and its `index` there (RankedCandidate.index). */
export interface SaliencyTarget {
  view: 'inspect' | 'rerank';
  index: number;
  /** Picked by the UI to tell its requests apart; the answer carries it back. */
  id: number;
}

/** 'interrupted': it was running when its page went away (or its worker failed); 'paused' includes stopped by the user. */
export type SavedRunState = 'running' | 'paused' | 'interrupted' | 'done';

/** A tokenized file kept in this browser (see storage/datasetKey.ts for its key). */
export interface StoredDatasetInfo {
  key: string;
  name: string;
  bytes: number;
  candidates: number;
  savedAt: number;
}

/** A run kept in this browser, as the runs list shows it. */
export interface SavedRunInfo {
  id: string;
  createdAt: number;
  datasetName: string;
  /** Its training file's content hash ("sha256:<hex>"); null when the file was not hashed. */
  datasetHash: string | null;
  /** The split it trained with (a run continued from a model keeps that model's). */
  split: { seed: number; trainFraction: number };
  /** The form's settings when it started; its model fields are what a fresh run trains. */
  settings: TrainSettings;
  /** The model it actually trained: its stored config (a continued run trains the model it continued). */
  model: ModelSettings;
  state: SavedRunState;
  /** Step of its last stored checkpoint (0: none, so it cannot be resumed). */
  checkpointStep: number;
  totalSteps: number;
  /** Last smoothed training loss and best validation Best-of-N recorded. */
  lastLoss: number | null;
  bestValBestOfN: number | null;
}

/** What the data panel shows about one loaded file. */
export interface DatasetSummary {
  role: DataRole;
  name: string;
  bytes: number;
  stats: DatasetStats;
  tokens: TokenLengthStats;
  /** The first 200 rejected lines, as ready-made messages. */
  firstErrors: Array<{ line: number; field: string; kind: LineErrorKind; message: string }>;
  errorCounts: Record<LineErrorKind, number>;
  /** Groups with both labels, and how the seeded 80/20 split divides them (train role only). */
  trainableGroups: number;
  /** kind and holdoutSources: how the split was made (split.ts); absent in summaries of the test role. */
  split: { seed: number; train: number; val: number; kind?: SplitKind; holdoutSources?: string[] } | null;
  /** The distinct `source` names of the file's candidates (what "hold out sources" offers); [] when the lines name none. */
  sources?: string[];
  /** The detected format, the files read, where labels came from ('none': a picks set, not trainable), and what was mapped. */
  format?: DataFormat;
  files?: string[];
  labelsFrom?: LabelsFrom;
  mapping?: string;
  /** Candidates per source (a generator, else the file), with the share labelled correct (null without labels). */
  sourceRows?: DataSourceRow[];
  /** Seconds spent reading + parsing, and tokenizing, and with how many tokenizer workers. */
  timing: { parseSeconds: number; tokenizeSeconds: number; workers: number };
}

export interface IngestProgressEvent {
  type: 'ingestProgress';
  role: DataRole;
  phase: 'reading' | 'tokenizing';
  /** Bytes read (reading) or candidates tokenized (tokenizing), out of total. */
  done: number;
  total: number;
  lines: number;
  etaSeconds: number | null;
}

export interface Estimate {
  params: number;
  /** Rough peak GPU memory for training: weights, AdamW state, gradients and activations. */
  trainingBytes: number;
  /** The largest single buffer (the embedding table or the attention scores of one micro-batch). */
  largestBufferBytes: number;
  /** Human warnings, e.g. when a buffer exceeds the adapter's maxStorageBufferBindingSize. */
  warnings: string[];
}

export interface EvalReport {
  set: EvalSet;
  /** Epoch (1-based) and step at which it was taken; epoch 0 = before training. */
  epoch: number;
  step: number;
  /** Mean training loss over the epoch that just ended (null for mid-epoch or standalone evaluations). */
  epochTrainLoss: number | null;
  summary: EvalSummary;
  curve: NCurveRow[];
  histogram: EnergyHistogram;
  /** This evaluation made a new best checkpoint. */
  isBest: boolean;
  /** 'run': taken by the training loop (its curves); 'request': the answer to an `evaluate` command. */
  origin: 'run' | 'request';
  /** The model evaluated. */
  modelSlot: ModelSlot;
  /** The per-source audit (engine/metrics/sources.ts); [] when the lines name no source; absent in reports recorded before it. */
  sources?: SourceRow[];
  /** The selection rules with intervals, the fitted temperature and calibration; absent in reports recorded before them. */
  selection?: SelectionReport | null;
  /** The recommended rule's accuracy over all held-out questions (not only those with both labels); absent when not computed. */
  allQuestionsAccuracy?: number | null;
  /** A validation's: which split its questions come from, in plain words (heldOutNote.ts); absent for a test file and in older reports. */
  heldOut?: HeldOutNote | null;
}

export interface ModelInfo {
  slot: ModelSlot;
  source: 'trained' | 'imported';
  params: number;
  model: ModelSettings;
  /** e.g. "epoch 3, val Best-of-N 0.62" or the imported file's name. */
  description: string;
  /** Where training stood when these weights were taken (null when unknown, e.g. an imported file without a summary). */
  epoch: number | null;
  step: number | null;
  valBestOfN: number | null;
  warnings: string[];
  /** Bumped whenever the slot gets other weights: results tagged with an older revision are stale. */
  revision: number;
}

export interface RankedCandidate {
  rank: number;
  /** Position in the group (Inspect) or in the pasted list (Rerank), 0-based. */
  index: number;
  energy: number;
  deltaToBest: number;
  share: number;
  /** null when unlabelled (pasted candidates). */
  label: 0 | 1 | null;
  answer: string | null;
  text: string;
  tokens: number;
  truncated: boolean;
}

/** One final answer among pasted candidates (Rerank), with its probability of being right (metrics/rerankProbability.ts). */
export interface RerankAnswer {
  /** The canonical final answer; null: the candidates from which no answer was extracted (they never win the vote). */
  answer: string | null;
  /**
   * The map fitted on held-out questions applied: its share of softmax(−E/T), Platt's map of that share, or
   * the learned selector's probability (the no-answer row: its share).
   */
  probability: number;
  /** The pick (the most probable answer; ties: the first seen). */
  picked: boolean;
  /** Its candidates' pasted positions, lowest energy first. */
  candidates: number[];
}

export type WorkerEvent =
  | { type: 'ready'; backend: BackendInfo; hardwareConcurrency: number }
  /** `lifeLock`: the Web Lock the worker holds while it lives (null until held, or without Web Locks). */
  | { type: 'pong'; lifeLock: string | null }
  | ({ type: 'counters'; replayProfile?: ReplayProfile | null } & EngineCounters)
  | { type: 'log'; level: 'info' | 'warn'; message: string }
  /** `role` names the data slot when a loadData failed. */
  | { type: 'error'; command: CommandType | null; message: string; role?: DataRole }
  | IngestProgressEvent
  /** 'loaded': a load finished; 'refreshed': the same data re-summarised (new maxLen or split seed). */
  | { type: 'dataset'; summary: DatasetSummary; reason: 'loaded' | 'refreshed' }
  | { type: 'errorList'; fileName: string; mime: string; text: string }
  | { type: 'estimate'; estimate: Estimate }
  | { type: 'trainState'; state: TrainState; step: number; epoch: number; totalSteps: number; totalEpochs: number; message?: string }
  | ({ type: 'progress' } & RunProgress)
  | { type: 'metrics'; points: TrainPoint[] }
  | { type: 'evaluation'; report: EvalReport }
  /** Candidates scored so far by an evaluation under way (the run's validation, or one asked for). */
  | { type: 'evalProgress'; set: EvalSet; done: number; total: number }
  | { type: 'checkpoint'; slot: 'best'; epoch: number; step: number; valBestOfN: number }
  | { type: 'complete'; reason: 'finished' | 'stopped'; steps: number; bestValBestOfN: number | null }
  | { type: 'models'; active: ModelSlot; available: ModelInfo[] }
  | { type: 'inspectGroup'; set: EvalSet; filter: InspectFilter; position: number; matching: number; groupIndex: number; question: string; candidates: RankedCandidate[] }
  /** `answers`: the candidates grouped by final answer, at the selected model's temperature (`temperatureSource` says where it came from). */
  | { type: 'reranked'; question: string; candidates: RankedCandidate[]; modelSlot: ModelSlot; answers: RerankAnswer[]; temperature: number; temperatureSource: string }
  | ({ type: 'saliency'; target: SaliencyTarget; modelSlot: ModelSlot } & CandidateSaliency)
  /** Reduced texts of a "Why this energy?" scored so far; `total` grows once the token grain's step is known. */
  | { type: 'saliencyProgress'; target: SaliencyTarget; done: number; total: number }
  /** A file to save: the weights, the model card written beside them, or a run's metrics.jsonl. */
  | { type: 'exported'; fileName: string; bytes: ArrayBuffer; what?: 'weights' | 'card' | 'run' | 'picks' }
  | ({ type: 'picksProgress' } & PicksProgress)
  /** The runs saved in this browser, sent at start and whenever one changes state or is deleted. */
  | { type: 'runs'; runs: SavedRunInfo[] }
  /** The tokenized files kept in this browser, sent at start and whenever one is stored or deleted. */
  | { type: 'storedDatasets'; datasets: StoredDatasetInfo[] }
  /** A saved run's smoothed loss ([step, value], at most a few hundred points) and validation Best-of-N by step. */
  | { type: 'runHistory'; runId: string; loss: Array<[number, number]>; valBestOfN: Array<[number, number]> };
