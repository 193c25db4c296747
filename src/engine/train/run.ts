import type { BackendProfile } from '../backend/profile.ts';
import { type GpuPoolTrimmer, gpuPoolTrimmer } from '../gpuMemory/gpuPool.ts';
import { checkpointBestScore } from '../data/olderRecords.ts';
import { UNFITTED_BEST_METRIC } from '../metrics/rules.ts';
import { ADAMW_DEFAULTS, AdamW } from '../model/adamw.ts';
import { cloneParams } from '../model/params.ts';
import { warmupSteps } from '../model/schedule.ts';
import { bestMetricOf } from './bestMetric.ts';
import type { RunControl, TakeSnapshot, WeightsSnapshot } from './runControl.ts';
import type { RunEvaluation, RunInputs, RunListener, TrainPoint } from './runTypes.ts';
import type { BestMetric } from './settings.ts';
import { type StepScalars, stepVariant } from './step/step.ts';
import { groupsPerStep, stepsPerEpoch, totalSteps } from './stepCount.ts';
import type { StepPeer } from './step/stepPeer.ts';
import { LossScaler } from '../precision/lossScaler.ts';

/** Where a step stands: what its point on the curves carries. */
export interface StepAt {
  step: number;
  epoch: number;
  lr: number;
}

/** The run's running figures: what a checkpoint keeps (and a resume starts from), and the skipped steps. */
export interface RunState {
  /** Optimizer steps taken. */
  step: number;
  ema: number;
  /** The best checkpoint's validation Best-of-N (what runs and model files list), and its figure of the run's metric. */
  best: number | null;
  bestScore: number | null;
  epochLossSum: number;
  epochLossCount: number;
  skippedSteps: number;
  skippedInARow: number;
  /** Why the run paused itself (non-finite steps in a row), said when it pauses. */
  pauseReason: string | undefined;
}

/** What the loop's phases share (python/eorm/train.py's Run). */
export interface Run {
  inputs: RunInputs;
  listener: RunListener;
  control: RunControl;
  profile: BackendProfile;
  steps: { perStep: number; perEpoch: number; total: number; warmup: number };
  optimizer: AdamW;
  metric: BestMetric;
  /** The thread that computes half of each step, where the profile shares steps. */
  stepPeer: StepPeer | undefined;
  /** Every step cut in two parts the same way, a peer or none: the micro-batch is chosen for a part. */
  splitSteps: boolean;
  /**
   * WebGPU's buffer pool keeps every freed buffer: trimmed to a multiple of the bytes in use after every
   * step, at pauses, after validations and at the end (see gpuMemory/gpuPool.ts).
   */
  gpuPool: GpuPoolTrimmer | null;
  /** Half precision's dynamic loss scale (the profile's halfPrecision), else null. A resume starts it afresh. */
  lossScaler: LossScaler | null;
  state: RunState;
  /** Points not yet delivered, when the last report went, and the clock, started after the first step. */
  progress: { points: TrainPoint[]; lastReport: number; timer: { start: number; steps: number; tokens: number } | null };
  /** Steps whose scalars are not read back yet, and the read in flight (see readback.ts). */
  readback: { queued: Array<{ s: StepScalars; at: StepAt }>; pending: Promise<void> | null };
  /** The untrained model's validation scored alongside the first steps (validate.ts; its test: untrainedAlongside.test.ts). */
  untrained: { scoring: Promise<void> | null; scored: RunEvaluation | null };
  checkpointsInFlight: Promise<void>[];
  /** A copy of the weights: only between two steps, when they are whole and the lazy embedding is brought up to date. */
  take: TakeSnapshot;
}

/** The run's counts, its optimizer (restored from the checkpoint it resumes) and its starting figures. */
export function prepareRun(inputs: RunInputs, listener: RunListener, control: RunControl): Run {
  const { params, split, settings } = inputs;
  if (split.train.length === 0) throw new Error('No training groups: the dataset needs groups with both a correct and an incorrect candidate.');
  const { profile } = inputs;
  const perStep = groupsPerStep(settings);
  const perEpoch = stepsPerEpoch(split.train.length, settings);
  const total = totalSteps(split.train.length, settings);
  const warmup = warmupSteps(total, settings.warmupRatio);
  const optimizer = new AdamW(params, { ...ADAMW_DEFAULTS, weightDecay: settings.weightDecay }, inputs.lazyEmbedding, profile);
  const resume = inputs.resumeFrom;
  if (resume) {
    if (resume.step > total || resume.epoch < 1 || resume.stepInEpoch > perEpoch)
      throw new Error(`checkpoint at step ${resume.step} does not fit this run's ${total} steps`);
    optimizer.restore(resume.optimizer);
  }
  const metric = bestMetricOf(settings);
  const best = resume?.bestValBestOfN ?? null;
  const state: RunState = {
    step: resume?.step ?? 0,
    ema: resume?.ema ?? 0,
    best,
    bestScore: checkpointBestScore(resume, metric, UNFITTED_BEST_METRIC, best),
    epochLossSum: resume?.epochLossSum ?? 0,
    epochLossCount: resume?.epochLossCount ?? 0,
    skippedSteps: 0,
    skippedInARow: 0,
    pauseReason: undefined,
  };
  return {
    inputs,
    listener,
    control,
    profile,
    steps: { perStep, perEpoch, total, warmup },
    optimizer,
    metric,
    stepPeer: profile.sharedSteps ? inputs.stepPeer : undefined,
    splitSteps: stepVariant(optimizer, inputs.params) === 'shared',
    gpuPool: profile.trimGpuPool ? gpuPoolTrimmer() : null,
    lossScaler: profile.halfPrecision ? new LossScaler() : null,
    state,
    progress: { points: [], lastReport: 0, timer: null },
    readback: { queued: [], pending: null },
    untrained: { scoring: null, scored: null },
    checkpointsInFlight: [],
    take: (): WeightsSnapshot => {
      optimizer.sync(params);
      return { params: cloneParams(params), step: state.step };
    },
  };
}
