/**
 * One benchmark run of the app's engine (the real worker in headless Chromium, or the same engine
 * in-process in Node: engineHost.ts): a backend, a model, the
 * built-in sample (or its first questions on slow backends). Measures the time from Start to the first
 * training step, scoring of the validation split, steady training, and the work counters per step
 * (src/worker/backend/counters.ts) over a window of whole steps; with `pastFirstEpoch`, the run has ten epochs
 * and the window lies past the first one, so pipelines compiled during the first epoch and after it are
 * told apart and the window holds no validation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { splitGroups } from '../engine/data/split.ts';
import { readTrainingData } from '../engine/data/testing/node.ts';
import { DEFAULT_TRAIN_SETTINGS, type ModelSettings } from '../engine/train/settings.ts';
import type { BackendChoice, BackendInfo } from '../worker/backend/backendInfo.ts';
import { backendLabel } from '../worker/backend/backendInfo.ts';
import type { ReplayProfile } from '../engine/kernels/webgpu/replay/stepReplay.ts';
import type { EngineRuntime } from './engineHost.ts';
import { watchCoresBusy } from './coresBusy.ts';
import { type RunCounters, firstEpochCounters, validationTime, windowCounters, windowRate } from './runWindow.ts';

export const SAMPLE_PATH = join('public', SAMPLE_DATASET_PATH);
/** Steps the training loop may queue on a GPU between two progress reports (READBACK_EVERY in engine/backend/profile.ts). */
const QUEUED_AHEAD = 10;
const sampleBytes = readFileSync(SAMPLE_PATH);
const sampleText = sampleBytes.toString('utf8');
const SEED = DEFAULT_TRAIN_SETTINGS.seed;

export interface Rate {
  seconds: number;
  perSec: number;
  tokensPerSec: number;
}

export interface AppRun {
  requested: BackendChoice;
  backend: string;
  label: string;
  software: boolean;
  preset: string;
  dModel: number;
  maxLen: number;
  data: string;
  /** The run's checkpoint interval in steps (0: none but at epoch ends); a checkpoint reads every weight and moment back. */
  checkpointEverySteps: number;
  startToFirstStepSec: number;
  /** From Start to the first 0.3 s in which every core of the machine was at least 90% busy (coresBusy.ts; null: never, or not Linux). */
  startToAllCoresBusySec: number | null;
  /** From Start to the untrained model's validation report (after the first step where a worker scores it alongside). */
  startToUntrainedValidationSec: number;
  score: Rate & { candidates: number; tokens: number };
  /**
   * Since the first step (validations and pauses included, steps counted when queued), and over the
   * counters' window alone (from a resume to a pause, every step in it finished; `validations` that still
   * fell in it, normally 0: their time is taken out, their work is in the counters).
   */
  train: {
    steps: number;
    stepsPerSec: number;
    tokensPerSec: number;
    window: { steps: number; seconds: number; stepsPerSec: number; tokensPerSec: number; validations: number };
    /** From step 10's progress report to the last one before the window's end (pauses and validations included); null if the window ended first. */
    fromStep10: { steps: number; seconds: number; tokensPerSec: number } | null;
  };
  /** Per training step over a window of whole steps after the first ones (WebGPU figures are 0 elsewhere). */
  counters: RunCounters;
  /** With `profile`: GPU ms of the largest replayed training step and of each kind of kernel in it. */
  replayProfile?: ReplayProfile | null;
  /** The products ran in half precision (the profile's halfPrecision: WebGPU with shader-f16, unless `precision: 'f32'`). */
  halfPrecision: boolean;
  /** The validation at the end of epoch 1 (the same step in every run of a preset): what f16 and float32 runs compare. */
  epoch1: { bestOfN: number; pairwise: number; btLoss: number; trainLoss: number | null } | null;
}

export interface RunSpec {
  requested: BackendChoice;
  /** Its name in the report: 'tiny', 'paper@512', … */
  preset: string;
  model: ModelSettings;
  /** Steady training lasts at least this long (or to the run's last steps). */
  seconds: number;
  /** Seconds between the file's load and Start (default 0). */
  settleSeconds?: number;
  /** Used instead of the whole sample on software adapters and the CPU backend, and wherever `sliced`. */
  slice: { questions: number; bytes: Buffer; name?: string };
  /** Train on the slice on any backend (a short first epoch on a real GPU too). */
  sliced?: boolean;
  /** The window lies after the first epoch (and its validation); a later epoch N (≥ 2) where shapes first seen
   *  in epoch 1 are recorded once more in epoch 2 (WebGPU's replay) and the window should hold none. */
  pastFirstEpoch?: boolean | number;
  /** Instead of the app's default checkpoint interval (0: none; PyTorch's step takes none). */
  checkpointEverySteps?: number;
  /** false: WebGPU's step replay off (the figures without it). */
  replay?: boolean;
  /** WebGPU with replay: where a replayed step's GPU time goes, measured at the end of the window. */
  profile?: boolean;
  /** 'f32': half precision off where the GPU has it (float32's figures beside f16's). */
  precision?: 'f32';
}

/** The first n questions of the sample (4 lines each, grouped by question_id). */
export function sampleSlice(questions: number, text = sampleText, name?: string): { questions: number; bytes: Buffer; name?: string } {
  const ids = new Set<string>();
  const out: string[] = [];
  for (const line of text.split('\n').filter((l) => l.trim())) {
    const id = (JSON.parse(line) as { question_id: string }).question_id;
    if (!ids.has(id) && ids.size === questions) break;
    ids.add(id);
    out.push(line);
  }
  return { questions: ids.size, bytes: Buffer.from(`${out.join('\n')}\n`), name };
}

/**
 * What a validation scores, as the engine splits the file (seed 42, the default split): every held-out
 * question's candidates (nothing else: the vote's calibration is fitted on them too); real tokens at maxLen.
 */
async function scoredWork(text: Buffer | string, maxLen: number): Promise<{ candidates: number; tokens: number }> {
  const { tokens, view } = await readTrainingData(typeof text === 'string' ? text : new Uint8Array(text));
  const split = splitGroups(view, { seed: SEED, kind: DEFAULT_TRAIN_SETTINGS.splitKind });
  const out = { candidates: 0, tokens: 0 };
  for (const g of split.val) {
    for (let i = view.groupStart[g]; i < view.groupStart[g + 1]; i++) {
      out.candidates++;
      out.tokens += Math.min(maxLen, tokens.offsets[i + 1] - tokens.offsets[i]);
    }
  }
  return out;
}

export async function appRun(runtime: EngineRuntime, spec: RunSpec): Promise<{ run: AppRun; info: BackendInfo }> {
  const host = await runtime.newHost({ slice: spec.slice.bytes, sample: sampleBytes });
  const { send, waitFor } = host;
  try {
    await send({ type: 'init', backend: spec.requested });
    const ready = await waitFor('ready');
    const info = ready.backend;
    // Counters from here on, so pipelines compiled by the validation and the first steps are counted too.
    await send({ type: 'counters', replay: spec.replay, precision: spec.precision });
    const precision = await waitFor('counters', ready.index);
    const software = info.backend === 'cpu' || (info.backend === 'webgpu' && !!info.adapter?.software);
    const sliced = software || !!spec.sliced;
    await send({ type: 'loadData', role: 'train', source: host.source(sliced ? 'slice' : 'sample') });
    await waitFor('dataset', ready.index);
    // The counters at the end of the first epoch: asked for with the second epoch's first progress report,
    // after the epoch's validation and the checkpoint that follows it (its read-back's copy compiles too).
    await host.countersOn("e.type === 'progress' && e.epoch >= 2");
    if (spec.settleSeconds) await new Promise((resolve) => setTimeout(resolve, spec.settleSeconds! * 1000));
    const from = await host.eventCount();
    const t0 = await host.now();
    // Enough epochs that the window ends long before the run: a pause asked for in an epoch's last steps
    // lands after its validation, and one asked for in the run's last steps never lands (on a GPU the loop
    // queues the steps of a short epoch faster than the page sees them).
    const windowEpoch = typeof spec.pastFirstEpoch === 'number' ? Math.max(2, spec.pastFirstEpoch) : 2;
    const epochs = spec.pastFirstEpoch ? windowEpoch + 8 : 2;
    const checkpoints = spec.checkpointEverySteps === undefined ? {} : { checkpointEverySteps: spec.checkpointEverySteps };
    const busy = watchCoresBusy(performance.now());
    await send({ type: 'start', settings: { ...DEFAULT_TRAIN_SETTINGS, preset: 'custom', model: spec.model, epochs, ...checkpoints } });
    const compiling = await waitFor('trainState', from, "e.state === 'compiling'");
    // The untrained model's validation comes first, or (WASM with a scoring worker) alongside the first steps.
    const first = await waitFor('trainState', compiling.index, "e.state === 'training'");
    // Work counters and speed over a window of whole steps, between two pauses. Before it pauses, the loop
    // reads every queued step back (on a GPU: waits until the device has finished them) and reports the
    // step count and its cumulative tokens, so the window's steps, tokens and time are all exact there;
    // progress reports in between count steps when they are queued, not when the GPU has run them.
    const counted = async (from: number) => {
      await send({ type: 'pause' });
      const paused = await waitFor('trainState', from, "e.state === 'paused' || e.state === 'done'");
      if (paused.state !== 'paused')
        throw new Error(`the run ended at step ${paused.step} before the pause for the counters' window (too few steps: a larger --slice?)`);
      const report = await waitFor('progress', from, `e.step === ${paused.step}`);
      await send({ type: 'counters' });
      const c = await waitFor('counters', paused.index);
      return { step: paused.step, at: paused.at, tokens: Math.round(report.tokensPerSec * report.elapsedSeconds), c, index: c.index };
    };
    // The window starts a few steps into the run (steady state), as the first step is done where epochs are
    // short (software adapters, the CPU backend: the pause lands a few queued steps later), or as the second
    // epoch starts (past the first validation), with as much of the epoch ahead as can be. Always past the
    // untrained model's validation: steps taken while a worker scores it run on one core.
    const untrained = await waitFor('evaluation', compiling.index, 'e.report.epoch === 0');
    const pastUntrained = Math.max(first.index, untrained.index);
    const start = spec.pastFirstEpoch
      ? await waitFor('progress', pastUntrained, `e.epoch >= ${windowEpoch}`)
      : software
        ? pastUntrained === first.index
          ? first
          : await waitFor('progress', pastUntrained)
        : await waitFor('progress', pastUntrained, 'e.step >= 3');
    const startToAllCoresBusySec = busy.stop();
    const c0 = await counted(start.index);
    await send({ type: 'resume' });
    const resumed = await waitFor('trainState', c0.index, "e.state === 'training'");
    const moving = await waitFor('progress', resumed.index);
    // The window lasts `seconds` of training.
    // It ends short of the epoch's end, so that no validation falls in it: on a GPU the loop queues steps
    // faster than the device runs them, reports at most every 250 ms and then waits for a read-back, so
    // the page may see a step count QUEUED_AHEAD steps late; `margin` covers that and the time it takes to ask.
    // Its last report ends the wait too: a run that ends first makes `counted` fail instead of waiting on.
    // `seconds` from the window's start: it starts late where the untrained model's validation ran alongside.
    const until = moving.elapsedSeconds + spec.seconds;
    const perEpoch = resumed.totalSteps / resumed.totalEpochs;
    // A fast step (a replayed one on a real GPU: hundreds a second) runs on between the page's polls too.
    const margin = 2 + QUEUED_AHEAD + Math.floor(perEpoch / 50) + Math.ceil(moving.stepsPerSec / 2);
    const epochEnd = `Math.min(e.epoch * ${perEpoch}, e.totalSteps) - ${margin}`;
    const steady = await waitFor(
      'progress',
      moving.index,
      `(e.step >= ${c0.step + 2} || e.step >= e.totalSteps) && (e.elapsedSeconds >= ${until} || e.step >= ${epochEnd})`,
    );
    const c1 = await counted(steady.index);
    const step10 = steady.step >= 10 ? await waitFor('progress', first.index, 'e.step >= 10') : null;
    const tokensAt = (e: { tokensPerSec: number; elapsedSeconds: number }) => e.tokensPerSec * e.elapsedSeconds;
    const fromStep10 =
      step10 && steady.elapsedSeconds > step10.elapsedSeconds
        ? {
            steps: steady.step - step10.step,
            seconds: steady.elapsedSeconds - step10.elapsedSeconds,
            tokensPerSec: (tokensAt(steady) - tokensAt(step10)) / (steady.elapsedSeconds - step10.elapsedSeconds),
          }
        : null;
    const validation = await validationTime(host, c0.index, c1.index);
    // Runs the step's kernels again, weights included: only now, just before the run stops.
    const profiled =
      spec.profile && spec.replay !== false && info.backend === 'webgpu'
        ? await send({ type: 'counters', profile: true }).then(() => waitFor('counters', c1.index + 1))
        : null;
    await send({ type: 'stop' });
    const complete = await waitFor('complete', c1.index);
    // Scoring speed: the validation (held-out and temperature-fit groups) scored again by the stopped run's
    // weights, with every core and nothing else running, as Evaluate does.
    const asked = await host.now();
    await send({ type: 'evaluate', set: 'val' });
    const scored = await waitFor('evaluation', complete.index, "e.report.origin === 'request'");
    const epoch1 = spec.pastFirstEpoch ? await firstEpochCounters(host, first.index) : null;
    const validated = spec.pastFirstEpoch ? (await waitFor('evaluation', first.index, "e.report.epoch === 1 && e.report.origin === 'run'")).report : null;
    const scoreSeconds = (scored.at - asked) / 1000;
    const { candidates, tokens } = await scoredWork(sliced ? spec.slice.bytes : sampleText, spec.model.maxLen);
    return {
      info,
      run: {
        requested: spec.requested,
        backend: info.backend,
        label: `${backendLabel(info)}${spec.requested === 'auto' ? ' [auto]' : ''}`,
        software,
        preset: spec.preset,
        dModel: spec.model.dModel,
        maxLen: spec.model.maxLen,
        data: sliced ? `${spec.slice.name ?? 'sample'}, first ${spec.slice.questions} questions` : 'sample',
        checkpointEverySteps: spec.checkpointEverySteps ?? DEFAULT_TRAIN_SETTINGS.checkpointEverySteps,
        startToFirstStepSec: (first.at - t0) / 1000,
        startToAllCoresBusySec,
        startToUntrainedValidationSec: (untrained.at - t0) / 1000,
        score: { seconds: scoreSeconds, candidates, tokens, perSec: candidates / scoreSeconds, tokensPerSec: tokens / scoreSeconds },
        train: {
          steps: steady.step,
          stepsPerSec: steady.stepsPerSec,
          tokensPerSec: steady.tokensPerSec,
          window: windowRate(c0, c1, resumed.at, validation),
          fromStep10,
        },
        counters: windowCounters(c0.c, c1.c, c1.step - c0.step, epoch1, spec.replay !== false),
        replayProfile: profiled?.replayProfile,
        halfPrecision: precision.halfPrecision === true,
        epoch1: validated && {
          bestOfN: validated.summary.bestOfN,
          pairwise: validated.summary.pairwise,
          btLoss: validated.summary.btLoss,
          trainLoss: validated.epochTrainLoss,
        },
      },
    };
  } finally {
    await host.close();
  }
}
