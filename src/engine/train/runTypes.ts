/** The training run's contract: what it is given (RunInputs), what it tells (RunListener) and what it returns. */
import type { BackendProfile } from '../backend/profile.ts';
import type { GroupSplit } from '../data/split.ts';
import type { TrainingView } from '../data/types.ts';
import type { CandidateFields } from '../data/candidateFields.ts';
import type { ModelConfig } from '../model/config.ts';
import type { Params } from '../model/params.ts';
import type { RunCheckpoint } from './checkpoint.ts';
import type { Evaluation } from '../score/evaluation.ts';
import type { ScoringPeer } from '../score/scoring.ts';
import type { StepPeer } from './step/stepPeer.ts';
import type { TrainSettings } from './settings.ts';

export interface TrainPoint {
  step: number;
  epoch: number;
  loss: number;
  /** Bias-corrected exponential moving average of the loss, for the smoothed curve. */
  smoothed: number;
  lr: number;
  gradNorm: number;
}

export interface RunProgress {
  step: number;
  epoch: number;
  totalSteps: number;
  /** Measured after the first step, so kernel compilation is not counted. */
  stepsPerSec: number;
  tokensPerSec: number;
  elapsedSeconds: number;
  etaSeconds: number | null;
  /** tf.memory(): live tensors and their bytes (stays flat from step to step). */
  tensors: number;
  tensorBytes: number;
  /** Steps whose loss or gradient norm was not finite: their update was skipped. */
  skippedSteps: number;
}

export interface RunEvaluation {
  epoch: number;
  step: number;
  /** Mean training loss of the epoch that just ended; null for a mid-epoch evaluation. */
  epochTrainLoss: number | null;
  evaluation: Evaluation;
  isBest: boolean;
}

export interface RunListener {
  /** `message` says why the loop paused itself (non-finite steps in a row). */
  state(state: 'compiling' | 'training' | 'paused', step: number, epoch: number, message?: string): void;
  points(points: TrainPoint[]): void;
  progress(p: RunProgress): void;
  /**
   * Called between two steps with the weights synced: snapshot the params there if isBest (never at epoch 0).
   * The untrained model's (step 0) may come some steps late, scored alongside them, but before any later one.
   */
  evaluation(e: RunEvaluation): void;
  /** Candidates scored so far by the validation under way (it can take a while on slow hardware). */
  evalProgress(done: number, total: number): void;
  /**
   * A checkpoint, every `checkpointEverySteps` steps and after every epoch's validation. Taken between
   * two steps and delivered once read back, while training goes on: store it without blocking.
   */
  checkpoint?(c: RunCheckpoint): void;
}

export interface RunInputs {
  cfg: ModelConfig;
  /** Trained in place: this is the "latest" model. While the run lasts, read it only through `control.snapshot()`. */
  params: Params;
  view: TrainingView;
  /** Canonical answer per candidate (majority vote baselines). */
  answers: ReadonlyArray<string | null>;
  split: GroupSplit;
  settings: TrainSettings;
  /** With the micro-batch on automatic (0), steps whose activations would exceed this run in micro-batches. */
  passBudgetBytes?: number;
  /** The embedding's sparse update (default: the profile's, on the CPU-memory backends); a run must resume as it started. */
  lazyEmbedding?: boolean;
  /** What runs where: the backend's profile, taken once where the run starts and handed to its steps and scoring. */
  profile: BackendProfile;
  /** Continue from this checkpoint of the same run (same settings and data); `params` must hold its weights. */
  resumeFrom?: RunCheckpoint;
  /** Threads that help score the validation (see ScoringPeer in scoring.ts). */
  scoringPeers?: ReadonlyArray<ScoringPeer>;
  /** The lines' numeric fields the selector also reads (settings.selectorFields that every candidate carries), view order. */
  fields?: CandidateFields;
  /** A thread that computes half of each training step where the profile shares steps (sharedStep.ts). */
  stepPeer?: StepPeer;
}

export interface RunResult {
  reason: 'finished' | 'stopped';
  steps: number;
  bestValBestOfN: number | null;
}
