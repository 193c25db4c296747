/**
 * The figures of a benchmark run's window of whole steps (appRun.ts): the work counters per step, the
 * training speed with validations taken out, and the pipelines compiled in the first epoch.
 */
import type { EngineHost, Timed } from './engineHost.ts';

type Counters = Timed<'counters'>;

export interface RunCounters {
  windowSteps: number;
  kernelsPerStep: number;
  dispatchesPerStep: number;
  submitsPerStep: number;
  uniformWritesPerStep: number;
  uploadBytesPerStep: number;
  readbacksPerStep: number;
  buffersCreatedPerStep: number;
  pipelinesBeforeWindow: number;
  pipelinesInWindow: number;
  /** Pipelines compiled from Start to the end of the first epoch's validation, and after it (null: the window ended in epoch 1). */
  pipelinesFirstEpoch: number | null;
  pipelinesAfterFirstEpoch: number | null;
  /** Batches of the untrained model's validation that scoring peers (other cores) scored. */
  scoringPeerBatches: number;
  /** Share of the window's steps whose later half a peer (the other core) computed. */
  sharedStepShare: number;
  liveTensorBytes: number;
  gpuBytesAllocated: number | null;
  /** The most bytes the GPU pool had in use at once during the window (null off WebGPU). */
  gpuPeakBytesUsed: number | null;
  /** The most bytes the GPU pool held at once during the window, in use and free (null off WebGPU). */
  gpuPeakBytesAllocated: number | null;
  /** Wall ms per step on the engine's thread inside tfjs kernels (EngineCounters.kernelMs). */
  kernelMsPerStep: number;
  /** The same by kernel, largest first (the first few): where the engine thread's time goes. */
  topKernelMsPerStep: Array<[string, number]>;
  /** WebGPU: bind groups made, steps recorded and replayed per step, and the engine thread's ms replaying. */
  bindGroupsPerStep: number;
  recordingsPerStep: number;
  replaysPerStep: number;
  replayMsPerStep: number;
  /** Recorded shapes kept at the end of the window and their GPU bytes. */
  captures: number;
  captureBytes: number;
  /** Whether WebGPU's step replay was on. */
  replay: boolean;
}

/** Work per step over the window of `steps` steps between the counters `c0` and `c1`; `epoch1`: at the first epoch's end. */
export function windowCounters(c0: Counters, c1: Counters, steps: number, epoch1: Counters | null, replay: boolean): RunCounters {
  const per = (
    k:
      | 'kernels'
      | 'dispatches'
      | 'submits'
      | 'uniformWrites'
      | 'uploadBytes'
      | 'readbacks'
      | 'buffersCreated'
      | 'bindGroups'
      | 'recordings'
      | 'replays'
      | 'replayMs'
      | 'kernelMs'
      | 'peerSteps',
  ) => (c1[k] - c0[k]) / steps;
  return {
    windowSteps: steps,
    kernelsPerStep: per('kernels'),
    dispatchesPerStep: per('dispatches'),
    submitsPerStep: per('submits'),
    uniformWritesPerStep: per('uniformWrites'),
    uploadBytesPerStep: per('uploadBytes'),
    readbacksPerStep: per('readbacks'),
    buffersCreatedPerStep: per('buffersCreated'),
    pipelinesBeforeWindow: c0.pipelines,
    pipelinesInWindow: c1.pipelines - c0.pipelines,
    pipelinesFirstEpoch: epoch1 ? epoch1.pipelines : null,
    pipelinesAfterFirstEpoch: epoch1 ? c1.pipelines - epoch1.pipelines : null,
    scoringPeerBatches: c0.peerBatches,
    sharedStepShare: per('peerSteps'),
    liveTensorBytes: c1.liveTensorBytes,
    gpuBytesAllocated: c1.gpuBytesAllocated,
    gpuPeakBytesUsed: c1.gpuPeakBytesUsed,
    gpuPeakBytesAllocated: c1.gpuPeakBytesAllocated,
    kernelMsPerStep: per('kernelMs'),
    topKernelMsPerStep: Object.entries(c1.kernelMsByName)
      .map(([k, ms]): [string, number] => [k, (ms - (c0.kernelMsByName[k] ?? 0)) / steps])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6),
    bindGroupsPerStep: per('bindGroups'),
    recordingsPerStep: per('recordings'),
    replaysPerStep: per('replays'),
    replayMsPerStep: per('replayMs'),
    captures: c1.captures,
    captureBytes: c1.captureBytes,
    replay,
  };
}

/** Training speed over the window: from the resume to the second pause (every step in it finished), validations taken out. */
export function windowRate(
  c0: { step: number; tokens: number },
  c1: { step: number; at: number; tokens: number },
  resumedAt: number,
  validation: { count: number; ms: number },
) {
  const seconds = (c1.at - resumedAt - validation.ms) / 1000;
  const steps = c1.step - c0.step;
  return { steps, seconds, stepsPerSec: steps / seconds, tokensPerSec: (c1.tokens - c0.tokens) / seconds, validations: validation.count };
}

/**
 * Validations between two events and the time they took: from the progress report the loop makes once
 * the epoch's steps are read back to the evaluation's report. The loop queues steps ahead of a GPU (up
 * to READBACK_EVERY), so a pause asked for near an epoch's end can land after its validation.
 */
export async function validationTime(host: EngineHost, from: number, to: number): Promise<{ count: number; ms: number }> {
  const events = await host.events(from, to);
  let count = 0;
  let ms = 0;
  for (let i = 0; i < events.length; i++) {
    if (events[i].type !== 'evaluation') continue;
    let j = i - 1;
    while (j > 0 && events[j].type !== 'progress') j--;
    count++;
    ms += events[i].at - events[Math.max(j, 0)].at;
  }
  return { count, ms };
}

/** The counters the page asked for at the second epoch's first progress report (null if the run stopped before it). */
export async function firstEpochCounters(host: EngineHost, from: number) {
  const second = await host.waitFor('progress', from, 'e.epoch >= 2', 1_000).catch(() => null);
  return second ? host.waitFor('counters', second.index) : null;
}
