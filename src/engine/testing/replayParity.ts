import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile, useProfile } from '../backend/profile.ts';
import { createRng } from '../shared/rng.ts';
import { internals } from '../kernels/webgpu/backendInternals.ts';
import { replaySummary, stepReplay } from '../kernels/webgpu/replay/stepReplay.ts';
import { ADAMW_DEFAULTS, AdamW } from '../model/adamw.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { scoreCandidates } from '../score/scoring.ts';
import type { StepBatch } from '../train/step/gradients.ts';
import { trainStep } from '../train/step/step.ts';

/** GPU work per step, counted on the device and queue the backend uses. */
export interface StepWork {
  dispatches: number;
  bindGroups: number;
  buffers: number;
  writes: number;
  submits: number;
}

/** replayParity's figures: the same run with WebGPU's step replay and without it. */
export interface ReplayParity {
  steps: number;
  /** Steps of the replayed run that were replayed, recorded, and the shapes it kept. */
  replayed: number;
  recorded: number;
  shapes: number;
  /** Largest |Δ| between the two runs' losses, gradient norms and final weights (0: bit-identical). */
  lossDiff: number;
  gradNormDiff: number;
  weightDiff: number;
  /** Largest |Δ| between energies scored with replay and without (three passes over the same candidates). */
  scoreDiff: number;
  scoreReplays: number;
  /** GPU work per replayed step (most of any one step) and per step without replay (mean). */
  perReplay: StepWork;
  perPlain: StepWork;
  /** Most dispatches a replayed step ran beyond the same step without replay (0: the same work). */
  extraDispatches: number;
}

const STEPS = 30;
const cfg = makeConfig({ vocabSize: 512, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 32, dropout: 0.1, maxLen: 64, clsId: 1, sepId: 2, padId: 0 });

/**
 * 30 training steps of a small model on WebGPU from the same weights, once with step replay and once
 * without (the plain tfjs path, the reference), on groups of 4 and 5 candidates of 20 to 64 tokens, some
 * steps in micro-batches of 2: six shapes, each recorded, checked and then replayed. Then the
 * trained model scores candidates both ways. Null off WebGPU's replay (the profile's replaySteps).
 */
export async function replayParity(): Promise<ReplayParity | null> {
  const base = activeProfile();
  if (!base.replaySteps) return null;
  const batches = makeBatches();
  const plain = await train({ ...base, replaySteps: false }, batches);
  const replayed = await train(base, batches);
  try {
    const candidates = batches.flatMap((b) => b.candidates);
    const before = replaySummary()?.replays ?? 0;
    const scoreWith = async (p: BackendProfile) =>
      (await Promise.all([0, 1, 2].map(() => withProfile(p, () => scoreCandidates(cfg, replayed.params, candidates, { profile: activeProfile() }))))).flatMap(
        (a) => [...a],
      );
    const [a, b] = [await scoreWith(base), await scoreWith({ ...base, replaySteps: false })];
    return {
      steps: STEPS,
      replayed: replayed.replays,
      recorded: replayed.recordings,
      shapes: replayed.shapes,
      lossDiff: largest(plain.losses, replayed.losses),
      gradNormDiff: largest(plain.norms, replayed.norms),
      weightDiff: largest(plain.weights, replayed.weights),
      scoreDiff: largest(a, b),
      scoreReplays: (replaySummary()?.replays ?? 0) - before,
      perReplay: replayed.perReplay,
      perPlain: plain.perPlain,
      extraDispatches: Math.max(...replayed.dispatches.map((d, s) => (replayed.replayedAt[s] ? d - plain.dispatches[s] : -Infinity))),
    };
  } finally {
    disposeParams(plain.params);
    disposeParams(replayed.params);
    stepReplay().clear();
  }
}

function makeBatches(): Array<StepBatch & { microBatch?: number }> {
  const rng = createRng(11);
  const int = (lo: number, hi: number) => lo + Math.floor(rng.next() * (hi - lo + 1));
  // Two group sizes (4, and 5 padded to 6), two lengths (up to 32 and 64 tokens) and micro-batches of 2:
  // six shapes in turn, each back five times (recorded twice, then replayed three times).
  return Array.from({ length: STEPS }, (_, s) => {
    const shape = s % 6;
    const micro = shape >= 4;
    const n = micro ? 4 : [4, 5][shape % 2];
    const long = micro ? [32, 64][shape - 4] : [32, 64][shape >> 1];
    const candidates = Array.from({ length: n }, () =>
      Int32Array.from({ length: int(long - 12, long) }, (_, t) => (t === 0 ? cfg.clsId : int(3, cfg.vocabSize - 1))),
    );
    const labels = Array.from({ length: n }, (_, i) => (i === 0 ? 1 : int(0, 1)));
    return { candidates, labels, groupOf: new Array<number>(n).fill(0), microBatch: micro ? 2 : undefined };
  });
}

async function train(profile: BackendProfile, batches: Array<StepBatch & { microBatch?: number }>) {
  const params = withProfile(profile, () => initParams(cfg, 5));
  const optimizer = new AdamW(params, ADAMW_DEFAULTS, false, profile);
  const losses: number[] = [];
  const norms: number[] = [];
  const perReplay: StepWork = { dispatches: 0, bindGroups: 0, buffers: 0, writes: 0, submits: 0 };
  const sum: StepWork = { ...perReplay };
  const dispatches: number[] = [];
  const replayedAt: boolean[] = [];
  const start = replaySummary() ?? { replays: 0, recordings: 0 };
  try {
    for (let s = 0; s < batches.length; s++) {
      const before = replaySummary()?.replays ?? 0;
      const { work, out } = await counted(() =>
        trainStep(cfg, params, optimizer, batches[s], { lr: 1e-3, maxGradNorm: 1, microBatch: batches[s].microBatch, dropoutSeed: 1000 + s }),
      );
      const [loss, norm] = await Promise.all([out.loss.data(), out.gradNorm.data()]);
      tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
      losses.push(loss[0]);
      norms.push(norm[0]);
      for (const k of Object.keys(sum) as Array<keyof StepWork>) sum[k] += work[k] / batches.length;
      dispatches.push(work.dispatches);
      replayedAt.push((replaySummary()?.replays ?? 0) > before);
      if (replayedAt[s]) for (const k of Object.keys(perReplay) as Array<keyof StepWork>) perReplay[k] = Math.max(perReplay[k], work[k]);
    }
    const weights = (await Promise.all([...params.values()].map((p) => p.data()))).flatMap((a) => [...(a as Float32Array)]);
    const end = replaySummary() ?? { replays: 0, recordings: 0, captures: 0 };
    return {
      params,
      losses,
      norms,
      weights,
      perReplay,
      perPlain: sum,
      dispatches,
      replayedAt,
      replays: end.replays - start.replays,
      recordings: end.recordings - start.recordings,
      shapes: (end as { captures: number }).captures,
    };
  } finally {
    optimizer.dispose();
  }
}

/** Runs `f` with `profile` as the active one (the ops read it), then puts the previous one back. */
function withProfile<T>(profile: BackendProfile, f: () => T): T {
  const previous = activeProfile();
  useProfile(profile);
  try {
    const out = f();
    if (out instanceof Promise) return out.finally(() => useProfile(previous)) as T;
    useProfile(previous);
    return out;
  } catch (e) {
    useProfile(previous);
    throw e;
  }
}

/** The GPU objects made and calls sent while `f` runs, counted on the active backend's own device and queue. */
async function counted<T>(f: () => Promise<T>): Promise<{ work: StepWork; out: T }> {
  const b = internals(tf.backend());
  // tfjs's encoder made before counting would hide its dispatches: start on a fresh one.
  if (b.commandEncoder) {
    b.endComputePassEncoder();
    b.submitQueue();
  }
  const work: StepWork = { dispatches: 0, bindGroups: 0, buffers: 0, writes: 0, submits: 0 };
  const undo: Array<() => void> = [];
  const count = <O extends object>(obj: O, name: string, k: keyof StepWork, also?: (r: unknown) => void) => {
    const o = obj as Record<string, unknown>;
    const own = Object.prototype.hasOwnProperty.call(o, name);
    const before = o[name] as (...a: unknown[]) => unknown;
    o[name] = function (this: unknown, ...a: unknown[]) {
      work[k]++;
      const r = before.apply(this, a);
      also?.(r);
      return r;
    };
    undo.push(() => (own ? (o[name] = before) : delete o[name]));
  };
  count(b.device, 'createBindGroup', 'bindGroups');
  count(b.device, 'createBuffer', 'buffers');
  count(b.queue, 'writeBuffer', 'writes');
  count(b.queue, 'submit', 'submits');
  const encoder = b.device.createCommandEncoder;
  (b.device as unknown as Record<string, unknown>).createCommandEncoder = function (this: GPUDevice, d?: GPUCommandEncoderDescriptor) {
    const enc = encoder.call(this, d);
    const begin = enc.beginComputePass;
    enc.beginComputePass = function (this: GPUCommandEncoder, pd?: GPUComputePassDescriptor) {
      const pass = begin.call(this, pd);
      const dispatch = pass.dispatchWorkgroups;
      pass.dispatchWorkgroups = function (this: GPUComputePassEncoder, x: number, y?: number, z?: number) {
        work.dispatches++;
        return dispatch.call(this, x, y, z);
      };
      return pass;
    };
    return enc;
  };
  undo.push(() => delete (b.device as unknown as Record<string, unknown>).createCommandEncoder);
  try {
    const out = await f();
    // The step's commands still waiting in tfjs's encoder go out now, counted as the step's.
    if (b.commandEncoder) {
      b.endComputePassEncoder();
      b.submitQueue();
    }
    return { work, out };
  } finally {
    for (const u of undo.reverse()) u();
  }
}

function largest(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Number.isNaN(a[i]) || Number.isNaN(b[i]) ? Infinity : Math.abs(a[i] - b[i]));
  return m;
}
