import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile } from '../backend/profile.ts';
import { createRng, shuffleInPlace } from '../data/rng.ts';
import type { GroupSplit } from '../data/split.ts';
import type { TrainingView } from '../data/types.ts';
import { ADAMW_DEFAULTS, AdamW } from '../model/adamw.ts';
import type { ModelConfig } from '../model/config.ts';
import { mixSeed } from '../model/dropout.ts';
import { type Params, cloneParams, disposeParams } from '../model/params.ts';
import { cosineWithWarmup, warmupSteps } from '../model/schedule.ts';
import { gpuPoolTrimmer } from '../gpuMemory/gpuPool.ts';
import { stepReplay } from '../kernels/webgpu/replay/stepReplay.ts';
import { autoMicroBatch } from '../model/autoMicroBatch.ts';
import { bestMetricOf, isBetter, metricValue } from './bestMetric.ts';
import { type RunCheckpoint, captureCheckpoint } from './checkpoint.ts';
import { type Evaluation, evaluateModel } from '../score/evaluation.ts';
import type { ScoringPeer } from '../score/scoring.ts';
import type { StepPeer } from './stepPeer.ts';
import type { RunControl, TakeSnapshot } from './runControl.ts';
import type { TrainSettings } from './settings.ts';
import { type StepScalars, splitsSteps, trainStep } from './step.ts';
import { stepBatch } from './stepBatch.ts';
import { groupsPerStep, stepsPerEpoch, totalSteps } from './stepCount.ts';
import { yieldToEventLoop } from '../score/yieldToEventLoop.ts';

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
  /** What runs where (default: the active backend's profile). */
  profile?: BackendProfile;
  /** Continue from this checkpoint of the same run (same settings and data); `params` must hold its weights. */
  resumeFrom?: RunCheckpoint;
  /** Threads that help score the validation (see ScoringPeer in scoring.ts). */
  scoringPeers?: ReadonlyArray<ScoringPeer>;
  /** A thread that computes half of each training step where the profile shares steps (sharedStep.ts). */
  stepPeer?: StepPeer;
}

export interface RunResult {
  reason: 'finished' | 'stopped';
  steps: number;
  bestValBestOfN: number | null;
}

const SMOOTHING = 0.95;
const REPORT_EVERY_MS = 250;

/** This many skipped (non-finite) steps in a row pause the run. */
export const NON_FINITE_PAUSE = 3;

/**
 * The reference recipe: epochs over the training groups, reshuffled every epoch with the run's seed,
 * `groupsPerStep` groups per step, Bradley-Terry loss, AdamW with clipping and a cosine schedule with
 * warmup, validation before training and at every epoch end (and every N steps if asked). Loss and gradient norm are read
 * back asynchronously, on a GPU several steps at a time, so the GPU is never idle waiting for the CPU.
 */
export async function runTraining(inputs: RunInputs, listener: RunListener, control: RunControl): Promise<RunResult> {
  const { cfg, params, view, answers, split, settings } = inputs;
  if (split.train.length === 0) throw new Error('No training groups: the dataset needs groups with both a correct and an incorrect candidate.');
  const profile = inputs.profile ?? activeProfile();
  const perStep = groupsPerStep(settings);
  const epochSteps = stepsPerEpoch(split.train.length, settings);
  const runSteps = totalSteps(split.train.length, settings);
  const warmup = warmupSteps(runSteps, settings.warmupRatio);
  const optimizer = new AdamW(params, { ...ADAMW_DEFAULTS, weightDecay: settings.weightDecay }, inputs.lazyEmbedding, profile);
  const resume = inputs.resumeFrom;
  if (resume) {
    if (resume.step > runSteps || resume.epoch < 1 || resume.stepInEpoch > epochSteps) throw new Error(`checkpoint at step ${resume.step} does not fit this run's ${runSteps} steps`);
    optimizer.restore(resume.optimizer);
  }

  let step = resume?.step ?? 0;
  let ema = resume?.ema ?? 0;
  const metric = bestMetricOf(settings);
  // The best checkpoint's validation Best-of-N (what runs and model files list), and its figure of `metric`.
  let best: number | null = resume?.bestValBestOfN ?? null;
  let bestScore: number | null = resume?.bestMetricValue ?? (metric === 'bestOfN' ? best : null);
  let buffered: TrainPoint[] = [];
  let lastReport = 0;
  let timer: { start: number; steps: number; tokens: number } | null = null;
  let epochLossSum = resume?.epochLossSum ?? 0;
  let epochLossCount = resume?.epochLossCount ?? 0;
  const checkpointsInFlight: Promise<void>[] = [];
  let skippedSteps = 0;
  let skippedInARow = 0;
  let pauseReason: string | undefined;

  const report = (epoch: number, force = false) => {
    const now = performance.now();
    if (!force && now - lastReport < REPORT_EVERY_MS) return;
    lastReport = now;
    if (buffered.length > 0) listener.points(buffered);
    buffered = [];
    const elapsed = timer ? (now - timer.start) / 1000 : 0;
    const stepsPerSec = timer && elapsed > 0 ? timer.steps / elapsed : 0;
    listener.progress({
      step,
      epoch,
      totalSteps: runSteps,
      stepsPerSec,
      tokensPerSec: timer && elapsed > 0 ? timer.tokens / elapsed : 0,
      elapsedSeconds: elapsed,
      etaSeconds: stepsPerSec > 0 ? (runSteps - step) / stepsPerSec : null,
      tensors: tf.memory().numTensors,
      tensorBytes: tf.memory().numBytes,
      skippedSteps,
    });
  };

  // On a GPU the per-step scalars stay on the device and are read in one batch every `readbackEvery` steps
  // (a read ends a GPU pass and maps a buffer); the curves get every step, at most that many steps late.
  // On the CPU-memory backends a read is a copy: every step, so a run of non-finite steps pauses at once.
  const readEvery = profile.readbackEvery;
  const stepPeer = profile.sharedSteps ? inputs.stepPeer : undefined;
  // Every step cut in two parts the same way, a peer or none: the micro-batch is chosen for a part.
  const splitSteps = splitsSteps(optimizer);
  // WebGPU's buffer pool keeps every freed buffer: trimmed to a multiple of the bytes in use after every
  // step, at pauses, after validations and at the end (see gpuMemory/gpuPool.ts).
  const gpuPool = profile.trimGpuPool ? gpuPoolTrimmer() : null;
  let queued: Array<{ s: StepScalars; at: { step: number; epoch: number; lr: number } }> = [];
  let pending: Promise<void> | null = null;
  const readQueued = async () => {
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const packed = tf.tidy(() => {
      const parts = batch.flatMap(({ s }) => [tf.reshape(s.loss, [1]), tf.reshape(s.gradNorm, [1])]);
      // Always as many parts: a shorter read (a drain before a pause, a validation, a checkpoint) would
      // otherwise compile a concat of its own on a GPU, late in the run.
      if (parts.length < 2 * readEvery) {
        const zero = tf.zeros([1]);
        while (parts.length < 2 * readEvery) parts.push(zero);
      }
      return tf.concat(parts);
    });
    tf.dispose(batch.flatMap(({ s }) => [s.loss, s.gradNorm, s.clipCoef]));
    try {
      const values = await packed.data();
      batch.forEach(({ at }, i) => record(values[2 * i], values[2 * i + 1], at));
    } finally {
      packed.dispose();
    }
  };
  /** Every step read back and recorded: before pauses, validations, checkpoints and the epoch's end. */
  const drain = async () => {
    if (pending) await pending;
    pending = null;
    await readQueued();
  };

  const record = (l: number, gradNorm: number, at: { step: number; epoch: number; lr: number }) => {
    // The step skipped its update (see trainStep): counted, kept out of the curves and the epoch's mean.
    if (!Number.isFinite(l) || !Number.isFinite(gradNorm)) {
      skippedSteps++;
      skippedInARow++;
      if (skippedInARow >= NON_FINITE_PAUSE && !pauseReason) {
        pauseReason = `Paused: ${skippedInARow} steps in a row (up to step ${at.step}) had a ${Number.isFinite(l) ? 'non-finite gradient norm' : 'non-finite loss'}, so their updates were skipped. Lower the learning rate (or raise warmup) and start again, or resume to try on.`;
        control.pause();
      }
      return;
    }
    skippedInARow = 0;
    ema = SMOOTHING * ema + (1 - SMOOTHING) * l;
    buffered.push({ step: at.step, epoch: at.epoch, loss: l, smoothed: ema / (1 - SMOOTHING ** (at.step + 1)), lr: at.lr, gradNorm });
    epochLossSum += l;
    epochLossCount++;
  };

  // Only between two steps: the weights are whole then, and the lazy embedding is brought up to date.
  const take: TakeSnapshot = () => {
    optimizer.sync(params);
    return { params: cloneParams(params), step };
  };

  const evaluate = (weights: Params, alongside: boolean) =>
    evaluateModel(cfg, weights, view, answers, split.val, settings.seed, { onProgress: listener.evalProgress, peers: inputs.scoringPeers, peersOnly: alongside });

  // The untrained model's validation where steps are shared with a peer (WASM on two cores): scored there,
  // on a copy of the weights, while this thread trains alone, so Start → first step does not wait for it
  // (on long answers it scores the held-out groups for a minute). Reported between
  // two steps once scored, and awaited before any later validation or checkpoint, so the run's
  // evaluations and checkpoints keep their order.
  const untrained: { scoring: Promise<void> | null; scored: RunEvaluation | null } = { scoring: null, scored: null };
  const validateUntrainedAlongside = () => {
    const copy = take();
    const scored = evaluate(copy.params, true).finally(() => disposeParams(copy.params));
    untrained.scoring = scored.then((evaluation) => void (untrained.scored = { epoch: 0, step: 0, epochTrainLoss: null, evaluation, isBest: false }));
    // Its failure is the run's, raised where it is awaited.
    untrained.scoring.catch(() => undefined);
  };
  const reportUntrained = () => {
    if (!untrained.scored) return;
    listener.evaluation(untrained.scored);
    untrained.scored = null;
    untrained.scoring = null;
  };
  const settleUntrained = async () => {
    if (!untrained.scoring) return;
    await untrained.scoring;
    reportUntrained();
  };

  const validate = async (epoch: number, epochTrainLoss: number | null) => {
    if (split.val.length === 0) return;
    await settleUntrained();
    optimizer.sync(params);
    const evaluation = await control.holdStill(take, () => evaluate(params, false));
    // Scoring's batches leave their own sizes in WebGPU's pool: back to the budget before the next step.
    gpuPool?.trim();
    const bon = evaluation.summary.bestOfN;
    // The untrained model (epoch 0) is a reference point, never a checkpoint: on a small validation set it could stay best.
    const score = metricValue(evaluation, metric);
    const isBest = epoch >= 1 && isBetter(score, bestScore, metric);
    if (isBest) {
      best = bon;
      bestScore = score;
    }
    listener.evaluation({ epoch, step, epochTrainLoss, evaluation, isBest });
  };

  // Between two steps, with every loss read back (the tallies are whole).
  const checkpoint = (epoch: number, stepInEpoch: number) => {
    const deliver = listener.checkpoint;
    if (!deliver) return;
    const tallies = { ema, bestValBestOfN: best, bestMetricValue: bestScore, epochLossSum, epochLossCount };
    const done = captureCheckpoint(params, optimizer, { step, epoch, stepInEpoch }, tallies).then((c) => deliver.call(listener, c));
    done.catch(() => undefined);
    checkpointsInFlight.push(done);
  };

  try {
    const startEpoch = resume?.epoch ?? 1;
    listener.state('compiling', step, startEpoch);
    // Epoch 0: the untrained model, so the curves start from where training starts.
    if (!resume && split.val.length > 0 && stepPeer && (inputs.scoringPeers?.length ?? 0) > 0) validateUntrainedAlongside();
    else if (!resume) await validate(0, null);
    for (let epoch = startEpoch; epoch <= settings.epochs; epoch++) {
      const order = Uint32Array.from(split.train);
      shuffleInPlace(order, createRng(mixSeed(settings.seed, epoch)));
      const firstStep = resume && epoch === resume.epoch ? resume.stepInEpoch : 0;
      if (firstStep === 0) {
        epochLossSum = 0;
        epochLossCount = 0;
      }
      for (let s = firstStep; s < epochSteps; s++) {
        await yieldToEventLoop();
        reportUntrained();
        control.serveSnapshots(take);
        if (control.pauseRequested) {
          await drain();
          // Paused: down to the budget of what is in use, once the checkpoints' read-backs have given theirs back.
          await Promise.allSettled(checkpointsInFlight);
          gpuPool?.trim();
          report(epoch, true);
          listener.state('paused', step, epoch, pauseReason);
          pauseReason = undefined;
          skippedInARow = 0;
          // The untrained model's validation, if it finishes meanwhile, is reported while paused.
          void untrained.scoring?.then(reportUntrained, () => undefined);
          await control.holdStill(take, () => control.waitWhilePaused());
          listener.state('training', step, epoch);
        }
        if (control.stopRequested) break;
        const batch = stepBatch(view, order.subarray(s * perStep, (s + 1) * perStep), cfg.maxLen);
        // Not while the peer scores the untrained model: this thread then computes both parts of the step,
        // with the same numbers (sharedStep.ts). A split step's passes hold one part's activations each.
        const peer = untrained.scoring ? undefined : stepPeer;
        const perThread = splitSteps ? Math.ceil(batch.candidates.length / 2) : batch.candidates.length;
        const microBatch = settings.microBatch > 0 ? settings.microBatch : autoMicroBatch(cfg, perThread, batch.longest, inputs.passBudgetBytes);
        const lr = cosineWithWarmup(step, settings.lr, warmup, runSteps);
        const scalars = await trainStep(cfg, params, optimizer, batch, {
          lr,
          maxGradNorm: settings.maxGradNorm,
          microBatch,
          dropoutSeed: mixSeed(settings.seed ^ 0x5eed, step),
          peer,
        });
        queued.push({ s: scalars, at: { step, epoch, lr } });
        step++;
        if (timer === null) {
          // The first step compiles every kernel: wait for it, then start the clock.
          await drain();
          timer = { start: performance.now(), steps: 0, tokens: 0 };
          listener.state('training', step, epoch);
        } else {
          timer.steps++;
          timer.tokens += batch.tokenCount;
          if (queued.length >= readEvery) {
            // One batch read in flight at a time; the next steps run while it comes back.
            if (pending) await pending;
            pending = readQueued();
            // Awaited later; this only keeps an early rejection from being reported as unhandled meanwhile.
            pending.catch(() => undefined);
          }
        }
        gpuPool?.trim();
        report(epoch);
        if (settings.evalEverySteps > 0 && step % settings.evalEverySteps === 0 && s + 1 < epochSteps) {
          await drain();
          report(epoch, true);
          await validate(epoch, null);
        }
        if (settings.checkpointEverySteps > 0 && step % settings.checkpointEverySteps === 0 && s + 1 < epochSteps) {
          await drain();
          // The checkpoint's history holds the untrained model's validation.
          await settleUntrained();
          // The listener gets every point up to the checkpoint before the checkpoint itself.
          report(epoch, true);
          checkpoint(epoch, s + 1);
        }
      }
      await drain();
      report(epoch, true);
      if (control.stopRequested) break;
      await validate(epoch, epochLossCount > 0 ? epochLossSum / epochLossCount : null);
      checkpoint(epoch + 1, 0);
    }
    // Stopped before any later validation: the untrained model's is still reported.
    await settleUntrained();
    // A checkpoint that could not be read back means the device failed: say so.
    await Promise.all(checkpointsInFlight);
  } finally {
    await Promise.allSettled(checkpointsInFlight);
    optimizer.sync(params);
    optimizer.dispose();
    // The recorded steps bind this run's weights and moments: their memory goes with the run.
    if (profile.replaySteps) stepReplay().clear();
    gpuPool?.trim();
    control.finish(() => ({ params: cloneParams(params), step }));
  }
  return { reason: control.stopRequested ? 'stopped' : 'finished', steps: step, bestValBestOfN: best };
}
