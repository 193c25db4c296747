/**
 * One benchmark run of the app's real engine worker in headless Chromium: a backend, a model, the
 * built-in sample (or its first questions on slow backends). Measures the time from Start to the first
 * training step, scoring of the validation split, steady training, and the work counters per step
 * (src/worker/counters.ts) over a window of whole steps; with `pastFirstEpoch`, the run has ten epochs
 * and the window lies past the first one, so pipelines compiled during the first epoch and after it are
 * told apart and the window holds no validation.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestJsonl } from '../engine/data/ingest.ts';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { splitGroups } from '../engine/data/split.ts';
import { bytesStream } from '../engine/data/testing/node.ts';
import { tokenizeDataset, trainingView } from '../engine/data/tokenizeDataset.ts';
import { inProcessPool } from '../engine/data/tokenizePool.ts';
import { GPT2_EOT } from '../engine/model/config.ts';
import type { RunProgress } from '../engine/train/loop.ts';
import { DEFAULT_TRAIN_SETTINGS, type ModelSettings } from '../engine/train/settings.ts';
import type { BackendChoice, BackendInfo } from '../worker/backendInfo.ts';
import { backendLabel } from '../worker/backendInfo.ts';
import { type BenchBrowser, eventCount, newEnginePage, now, send, waitFor } from './enginePage.ts';

export const SAMPLE_PATH = join('public', SAMPLE_DATASET_PATH);
const sampleText = readFileSync(SAMPLE_PATH, 'utf8');
const SEED = DEFAULT_TRAIN_SETTINGS.seed;

export interface Rate {
  seconds: number;
  perSec: number;
  tokensPerSec: number;
}

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
  liveTensorBytes: number;
  gpuBytesAllocated: number | null;
  /** The most bytes the GPU pool had in use at once during the window (null off WebGPU). */
  gpuPeakBytesUsed: number | null;
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
  startToFirstStepSec: number;
  score: Rate & { candidates: number; tokens: number };
  /** Since the first step (validations and pauses included), and over the counters' window alone. */
  train: { steps: number; stepsPerSec: number; tokensPerSec: number; window: { steps: number; seconds: number; stepsPerSec: number; tokensPerSec: number } };
  /** Per training step over a window of whole steps after the first ones (WebGPU figures are 0 elsewhere). */
  counters: RunCounters;
}

export interface RunSpec {
  requested: BackendChoice;
  /** Its name in the report: 'tiny', 'paper@512', … */
  preset: string;
  model: ModelSettings;
  /** Steady training lasts at least this long (or to the run's last steps). */
  seconds: number;
  /** Used instead of the whole sample on software adapters and the CPU backend. */
  slice: { questions: number; bytes: Buffer };
  /** The window lies after the first epoch (and its validation). */
  pastFirstEpoch?: boolean;
}

/** The first n questions of the sample (4 lines each, grouped by question_id). */
export function sampleSlice(questions: number): { questions: number; bytes: Buffer } {
  const ids = new Set<string>();
  const out: string[] = [];
  for (const line of sampleText.split('\n').filter((l) => l.trim())) {
    const id = (JSON.parse(line) as { question_id: string }).question_id;
    if (!ids.has(id) && ids.size === questions) break;
    ids.add(id);
    out.push(line);
  }
  return { questions, bytes: Buffer.from(`${out.join('\n')}\n`) };
}

/** Real tokens of the validation split's candidates at maxLen, as the engine splits the file (seed 42). */
async function valTokens(text: Buffer | string, maxLen: number): Promise<number> {
  const ds = await ingestJsonl(bytesStream(typeof text === 'string' ? text : new Uint8Array(text)));
  const tokens = await tokenizeDataset(ds, { maxLen: 4096, clsId: GPT2_EOT, sepId: GPT2_EOT }, inProcessPool());
  const view = trainingView(ds, tokens);
  let n = 0;
  for (const g of splitGroups(view, { seed: SEED }).val) {
    for (let i = view.groupStart[g]; i < view.groupStart[g + 1]; i++) n += Math.min(maxLen, tokens.offsets[i + 1] - tokens.offsets[i]);
  }
  return n;
}

type PageEngine = { events: Array<{ type: string; report?: { epoch: number; set: string } }>; send(cmd: { type: string }): void };

export async function appRun(bench: BenchBrowser, spec: RunSpec): Promise<{ run: AppRun; info: BackendInfo }> {
  const page = await newEnginePage(bench, { '/__bench__/slice.jsonl': spec.slice.bytes });
  try {
    await send(page, { type: 'init', backend: spec.requested });
    const ready = await waitFor(page, 'ready');
    const info = ready.backend;
    // Counters from here on, so pipelines compiled by the validation and the first steps are counted too.
    await send(page, { type: 'counters' });
    await waitFor(page, 'counters', ready.index);
    const software = info.backend === 'cpu' || (info.backend === 'webgpu' && !!info.adapter?.software);
    const source = software ? { kind: 'url' as const, url: '/__bench__/slice.jsonl', name: 'slice' } : { kind: 'url' as const, url: `/${SAMPLE_DATASET_PATH}`, name: 'sample' };
    await send(page, { type: 'loadData', role: 'train', source });
    await waitFor(page, 'dataset', ready.index);
    // The counters at the end of the first epoch's validation: asked for by the page the moment that
    // validation's report arrives, so the worker answers before (or within) the second epoch's first step.
    await page.evaluate(() => {
      const engine = (window as unknown as { engine: PageEngine }).engine;
      const push = engine.events.push.bind(engine.events);
      engine.events.push = (...evs) => {
        if (evs.some((e) => e.type === 'evaluation' && e.report?.set === 'val' && e.report.epoch === 1)) engine.send({ type: 'counters' });
        return push(...evs);
      };
    });
    const from = await eventCount(page);
    const t0 = await now(page);
    // Past the first epoch: enough epochs that the window ends long before the run (a pause asked for in its
    // last steps may come too late).
    const epochs = spec.pastFirstEpoch ? 10 : 1;
    await send(page, { type: 'start', settings: { ...DEFAULT_TRAIN_SETTINGS, preset: 'custom', model: spec.model, epochs } });
    const compiling = await waitFor(page, 'trainState', from, "e.state === 'compiling'");
    const untrained = await waitFor(page, 'evaluation', compiling.index);
    const first = await waitFor(page, 'trainState', untrained.index, "e.state === 'training'");
    // Work counters over a window of whole steps: pause (the step count is exact there), read, resume.
    const counted = async (from: number) => {
      await send(page, { type: 'pause' });
      const paused = await waitFor(page, 'trainState', from, "e.state === 'paused'");
      await send(page, { type: 'counters' });
      const c = await waitFor(page, 'counters', paused.index);
      return { step: paused.step, c, index: c.index };
    };
    // The window starts a few steps into the run, or into the second epoch (past the first validation).
    const start = spec.pastFirstEpoch ? await waitFor(page, 'progress', first.index, 'e.epoch >= 2') : first;
    const warm = await waitFor(page, 'progress', start.index, `e.step >= ${spec.pastFirstEpoch ? start.step + 2 : 3}`);
    const c0 = await counted(warm.index);
    await send(page, { type: 'resume' });
    const resumed = await waitFor(page, 'progress', c0.index);
    // Past the first epoch the window lasts `seconds`; in it, training lasts `seconds` from the first step.
    const until = spec.pastFirstEpoch ? resumed.elapsedSeconds + spec.seconds : spec.seconds;
    const steady = await waitFor(page, 'progress', resumed.index, `e.step >= ${c0.step + 2} && (e.elapsedSeconds >= ${until} || e.step >= e.totalSteps - 2)`);
    const c1 = await counted(steady.index);
    await send(page, { type: 'stop' });
    await waitFor(page, 'complete', c1.index);
    const epoch1 = spec.pastFirstEpoch ? await firstEpochCounters(page, first.index) : null;
    const steps = c1.step - c0.step;
    const per = (k: 'kernels' | 'dispatches' | 'submits' | 'uniformWrites' | 'uploadBytes' | 'readbacks' | 'buffersCreated') => (c1.c[k] - c0.c[k]) / steps;
    const scoreSeconds = (untrained.at - compiling.at) / 1000;
    const candidates = untrained.report.summary.nCandidates;
    const tokens = await valTokens(software ? spec.slice.bytes : sampleText, spec.model.maxLen);
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
        data: software ? `sample, first ${spec.slice.questions} questions` : 'sample',
        startToFirstStepSec: (first.at - t0) / 1000,
        score: { seconds: scoreSeconds, candidates, tokens, perSec: candidates / scoreSeconds, tokensPerSec: tokens / scoreSeconds },
        train: { steps: steady.step, stepsPerSec: steady.stepsPerSec, tokensPerSec: steady.tokensPerSec, window: windowRate(resumed, steady) },
        counters: {
          windowSteps: steps,
          kernelsPerStep: per('kernels'),
          dispatchesPerStep: per('dispatches'),
          submitsPerStep: per('submits'),
          uniformWritesPerStep: per('uniformWrites'),
          uploadBytesPerStep: per('uploadBytes'),
          readbacksPerStep: per('readbacks'),
          buffersCreatedPerStep: per('buffersCreated'),
          pipelinesBeforeWindow: c0.c.pipelines,
          pipelinesInWindow: c1.c.pipelines - c0.c.pipelines,
          pipelinesFirstEpoch: epoch1 ? epoch1.pipelines : null,
          pipelinesAfterFirstEpoch: epoch1 ? c1.c.pipelines - epoch1.pipelines : null,
          scoringPeerBatches: c0.c.peerBatches,
          liveTensorBytes: c1.c.liveTensorBytes,
          gpuBytesAllocated: c1.c.gpuBytesAllocated,
          gpuPeakBytesUsed: c1.c.gpuPeakBytesUsed,
        },
      },
    };
  } finally {
    await page.close();
  }
}

/** Training speed between two progress reports (their figures are cumulative since the first step). */
function windowRate(a: RunProgress, b: RunProgress) {
  const seconds = b.elapsedSeconds - a.elapsedSeconds;
  const tokens = b.tokensPerSec * b.elapsedSeconds - a.tokensPerSec * a.elapsedSeconds;
  return { steps: b.step - a.step, seconds, stepsPerSec: (b.step - a.step) / seconds, tokensPerSec: tokens / seconds };
}

/** The counters the page asked for when the first epoch's validation came (null if the run stopped before it). */
async function firstEpochCounters(page: Page, from: number) {
  const evaluation = await waitFor(page, 'evaluation', from, "e.report.epoch === 1 && e.report.set === 'val'", 1_000).catch(() => null);
  return evaluation ? waitFor(page, 'counters', evaluation.index) : null;
}
