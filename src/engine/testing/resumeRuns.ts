import type { TrainingView } from '../data/types.ts';
import type { GroupSplit } from '../data/split.ts';
import type { ModelConfig } from '../model/config.ts';
import { type ParamArrays, disposeParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import type { RunCheckpoint } from '../train/checkpoint.ts';
import { type RunListener, type TrainPoint, runTraining } from '../train/loop.ts';
import { RunControl } from '../train/runControl.ts';
import type { TrainSettings } from '../train/settings.ts';
import { activeProfile } from '../backend/profile.ts';

/**
 * Runs stopped, checkpointed and resumed through the real training loop, on whichever backend is active:
 * the resume tests in Node (train/resume.test.ts) and in the browser (e2e/resumeBackends.spec.ts).
 */
export interface ResumeSetup {
  cfg: ModelConfig;
  view: TrainingView;
  answers: ReadonlyArray<string | null>;
  split: GroupSplit;
  settings: TrainSettings;
  /** Left out: the active backend's choice. */
  lazyEmbedding?: boolean;
  /** Told the step a run has reached, now and then (a slow backend's check says where it is). */
  onStep?: (step: number) => void;
}

export interface Seen {
  points: TrainPoint[];
  checkpoints: RunCheckpoint[];
}

/**
 * Trains from `init` (or resumes from `from`) on the active backend; asked to stop at its first checkpoint
 * at or past `stopAtStep` (a backend that reads back every few steps may take a few more).
 */
export async function trainRun(setup: ResumeSetup, init: ParamArrays, from?: RunCheckpoint, stopAtStep?: number): Promise<{ final: ParamArrays; seen: Seen }> {
  const params = paramsFromArrays(setup.cfg, from ? from.params : init);
  const control = new RunControl();
  const seen: Seen = { points: [], checkpoints: [] };
  const listener: RunListener = {
    state: () => undefined,
    points: (p) => seen.points.push(...p),
    progress: (p) => setup.onStep?.(p.step),
    evaluation: () => undefined,
    evalProgress: () => undefined,
    checkpoint: (c) => {
      seen.checkpoints.push(c);
      if (stopAtStep !== undefined && c.step >= stopAtStep) control.stop();
    },
  };
  try {
    // A resumed run keeps the embedding update it started with, as the app's (worker/runs/trainingRuns.ts).
    const lazyEmbedding = setup.lazyEmbedding ?? (from ? from.optimizer.lazy !== null : undefined);
    await runTraining({ ...setup, lazyEmbedding, params, resumeFrom: from, profile: activeProfile() }, listener, control);
    return { final: await paramsToArrays(params, activeProfile()), seen };
  } finally {
    disposeParams(params);
  }
}

/** The largest |Δ| between two sets of weights, over every entry. */
export function worstDifference(a: ParamArrays, b: ParamArrays): number {
  let worst = 0;
  for (const [name, x] of a) {
    const y = b.get(name)!;
    for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i] - y[i]));
  }
  return worst;
}

/** A run checkpointed on `first`, resumed on `then`, against the uninterrupted run on `versus`. */
export interface CrossResume {
  first: string;
  then: string;
  versus: string;
  /** Step of the checkpoint the run resumed from. */
  checkpointStep: number;
  /** Largest |Δweight| between the resumed run's end and the uninterrupted run's. */
  worst: number;
  /** Largest |Δweight| between the checkpoint and the uninterrupted run's end: how far the weights still moved. */
  movedAfter: number;
}

/**
 * Both ways between two backends: the uninterrupted run on each, a run stopped at `stopAt` on one and
 * resumed on the other, each resumed run against both uninterrupted ones. `use` makes a backend active.
 */
export async function crossBackendResumes(
  setup: ResumeSetup,
  init: ParamArrays,
  stopAt: number,
  backends: readonly [string, string],
  use: (backend: string) => Promise<void>,
): Promise<CrossResume[]> {
  const whole = new Map<string, ParamArrays>();
  for (const b of backends) {
    await use(b);
    whole.set(b, (await trainRun(setup, init)).final);
  }
  const out: CrossResume[] = [];
  for (const [first, then] of [backends, [backends[1], backends[0]]]) {
    await use(first);
    const last = (await trainRun(setup, init, undefined, stopAt)).seen.checkpoints.find((c) => c.step >= stopAt)!;
    await use(then);
    const resumed = (await trainRun(setup, init, last)).final;
    for (const versus of backends) {
      const w = whole.get(versus)!;
      out.push({ first, then, versus, checkpointStep: last.step, worst: worstDifference(resumed, w), movedAfter: worstDifference(last.params, w) });
    }
  }
  return out;
}
