/**
 * Training and scoring speed of the app, per backend and preset, against PyTorch on the same CPU, in one
 * run (figures, no pass/fail). The app side is the real engine worker in headless Chromium on the built-in
 * sample: the start-up probe's figures and choice; time from Start to the first training step (the
 * validation of the untrained model included); scoring of the validation split (candidates/s, tokens/s);
 * steady training (steps/s, real tokens/s, no padding counted). The PyTorch side runs the same model, data
 * and step (`python -m eorm.bench`) when a Python with torch is found. Writes bench/results/latest.json.
 * Software GPU adapters (SwiftShader, llvmpipe) and the CPU backend are far slower: they run the tiny
 * preset on the sample's first 40 questions only, and are labelled so. Their timings are not GPU speed.
 *
 *   npm run bench                                  # auto, wasm, webgpu, cpu × tiny, small; PyTorch
 *   npm run bench -- speed --presets tiny --backends auto,wasm --seconds 10 --no-python
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ingestJsonl } from '../engine/data/ingest.ts';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { splitGroups } from '../engine/data/split.ts';
import { bytesStream } from '../engine/data/testing/node.ts';
import { tokenizeDataset, trainingView } from '../engine/data/tokenizeDataset.ts';
import { inProcessPool } from '../engine/data/tokenizePool.ts';
import { GPT2_EOT } from '../engine/model/config.ts';
import { INSTALL_TORCH, findPython, runPython } from '../engine/testing/pythonNode.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS } from '../engine/train/settings.ts';
import type { BackendChoice, BackendInfo } from '../worker/backendInfo.ts';
import { backendLabel } from '../worker/backendInfo.ts';
import { eventCount, newEnginePage, now, send, startBenchBrowser, waitFor } from './enginePage.ts';

type Preset = 'tiny' | 'small';
const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const PRESET_LIST = opt('presets', 'tiny,small').split(',') as Preset[];
const BACKENDS = opt('backends', 'auto,wasm,webgpu,cpu').split(',') as BackendChoice[];
const SECONDS = Number(opt('seconds', '20'));
const WITH_PYTHON = !argv.includes('--no-python');
const SLOW_SLICE_QUESTIONS = 40;
const SEED = DEFAULT_TRAIN_SETTINGS.seed;

interface Rate {
  seconds: number;
  perSec: number;
  tokensPerSec: number;
}
interface AppRun {
  requested: BackendChoice;
  backend: string;
  label: string;
  software: boolean;
  preset: Preset;
  data: string;
  startToFirstStepSec: number;
  score: Rate & { candidates: number; tokens: number };
  train: { steps: number; stepsPerSec: number; tokensPerSec: number };
  /** Per training step over a window of whole steps after the first ones (WebGPU figures are 0 elsewhere). */
  counters: {
    windowSteps: number;
    kernelsPerStep: number;
    dispatchesPerStep: number;
    submitsPerStep: number;
    uniformWritesPerStep: number;
    uploadBytesPerStep: number;
    readbacksPerStep: number;
    pipelinesBeforeWindow: number;
    /** Batches of the untrained model's validation that scoring peers (other cores) scored. */
    scoringPeerBatches: number;
    pipelinesInWindow: number;
    liveTensorBytes: number;
    gpuBytesAllocated: number | null;
  };
}

const samplePath = join('public', SAMPLE_DATASET_PATH);
const sampleText = readFileSync(samplePath, 'utf8');

/** The first n questions of the sample (4 lines each, grouped by question_id). */
function slice(questions: number): Buffer {
  const ids = new Set<string>();
  const out: string[] = [];
  for (const line of sampleText.split('\n').filter((l) => l.trim())) {
    const id = (JSON.parse(line) as { question_id: string }).question_id;
    if (!ids.has(id) && ids.size === questions) break;
    ids.add(id);
    out.push(line);
  }
  return Buffer.from(`${out.join('\n')}\n`);
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

async function appRun(bench: Awaited<ReturnType<typeof startBenchBrowser>>, requested: BackendChoice, preset: Preset, slow: Buffer): Promise<{ run: AppRun; info: BackendInfo }> {
  const page = await newEnginePage(bench, { '/__bench__/slice.jsonl': slow });
  try {
    await send(page, { type: 'init', backend: requested });
    const ready = await waitFor(page, 'ready');
    const info = ready.backend;
    // Counters from here on, so pipelines compiled by the validation and the first steps are counted too.
    await send(page, { type: 'counters' });
    await waitFor(page, 'counters', ready.index);
    const software = info.backend === 'cpu' || (info.backend === 'webgpu' && !!info.adapter?.software);
    const source = software ? { kind: 'url' as const, url: '/__bench__/slice.jsonl', name: 'slice' } : { kind: 'url' as const, url: `/${SAMPLE_DATASET_PATH}`, name: 'sample' };
    await send(page, { type: 'loadData', role: 'train', source });
    await waitFor(page, 'dataset', ready.index);
    const from = await eventCount(page);
    const t0 = await now(page);
    await send(page, { type: 'start', settings: { ...DEFAULT_TRAIN_SETTINGS, preset, model: PRESETS[preset], epochs: 1 } });
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
    const warm = await waitFor(page, 'progress', first.index, 'e.step >= 3');
    const c0 = await counted(warm.index);
    await send(page, { type: 'resume' });
    const steady = await waitFor(page, 'progress', c0.index, `e.step >= ${c0.step + 2} && (e.elapsedSeconds >= ${SECONDS} || e.step >= e.totalSteps - 2)`);
    const c1 = await counted(steady.index);
    await send(page, { type: 'stop' });
    await waitFor(page, 'complete', c1.index);
    const steps = c1.step - c0.step;
    const per = (k: 'kernels' | 'dispatches' | 'submits' | 'uniformWrites' | 'uploadBytes' | 'readbacks') => (c1.c[k] - c0.c[k]) / steps;
    const scoreSeconds = (untrained.at - compiling.at) / 1000;
    const candidates = untrained.report.summary.nCandidates;
    const tokens = await valTokens(software ? slow : sampleText, PRESETS[preset].maxLen);
    return {
      info,
      run: {
        requested,
        backend: info.backend,
        label: `${backendLabel(info)}${requested === 'auto' ? ' [auto]' : ''}`,
        software,
        preset,
        data: software ? `sample, first ${SLOW_SLICE_QUESTIONS} questions` : 'sample',
        startToFirstStepSec: (first.at - t0) / 1000,
        score: { seconds: scoreSeconds, candidates, tokens, perSec: candidates / scoreSeconds, tokensPerSec: tokens / scoreSeconds },
        train: { steps: steady.step, stepsPerSec: steady.stepsPerSec, tokensPerSec: steady.tokensPerSec },
        counters: {
          windowSteps: steps,
          kernelsPerStep: per('kernels'),
          dispatchesPerStep: per('dispatches'),
          submitsPerStep: per('submits'),
          uniformWritesPerStep: per('uniformWrites'),
          uploadBytesPerStep: per('uploadBytes'),
          readbacksPerStep: per('readbacks'),
          pipelinesBeforeWindow: c0.c.pipelines,
          scoringPeerBatches: c0.c.peerBatches,
          pipelinesInWindow: c1.c.pipelines - c0.c.pipelines,
          liveTensorBytes: c1.c.liveTensorBytes,
          gpuBytesAllocated: c1.c.gpuBytesAllocated,
        },
      },
    };
  } finally {
    await page.close();
  }
}

interface TorchRun {
  preset: Preset;
  torch: string;
  threads: number;
  train: { steps: number; stepsPerSec: number; tokensPerSec: number };
  score: { candidates: number; tokens: number; seconds: number; candidatesPerSec: number; tokensPerSec: number };
}

function pytorch(preset: Preset, threads: number): TorchRun | string {
  const { python, tried } = findPython();
  if (!python) return `no Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`;
  const out = runPython(python, ['-m', 'eorm.bench', '--data', join('..', samplePath), '--preset', preset, '--threads', String(threads), '--seconds', String(SECONDS)]);
  return JSON.parse(out.trim().split('\n').pop()!) as TorchRun;
}

const f0 = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
const f1 = (x: number) => x.toFixed(1);

async function main() {
  const cores = availableParallelism();
  const slow = slice(SLOW_SLICE_QUESTIONS);
  const runs: AppRun[] = [];
  let probe: BackendInfo | null = null;
  const bench = await startBenchBrowser();
  const chromium = bench.browser.version();
  try {
    for (const requested of BACKENDS) {
      for (const preset of PRESET_LIST) {
        process.stdout.write(`app: ${requested} ${preset}… `);
        const { run, info } = await appRun(bench, requested, preset, slow);
        if (requested === 'auto') probe ??= info;
        console.log(`${f0(run.train.tokensPerSec)} tok/s training`);
        runs.push(run);
        if (run.software) break; // slow backends: the tiny preset only
      }
    }
  } finally {
    await bench.close();
  }
  const torch: Record<string, TorchRun | string> = {};
  if (WITH_PYTHON) {
    for (const preset of PRESET_LIST) {
      process.stdout.write(`PyTorch ${preset}… `);
      torch[preset] = pytorch(preset, cores);
      console.log(typeof torch[preset] === 'string' ? torch[preset] : `${f0((torch[preset] as TorchRun).train.tokensPerSec)} tok/s training`);
    }
  }

  const rows: string[][] = [['backend', 'preset', 'data', 'Start→1st step', 'score tok/s (cand/s)', 'train tok/s', 'steps/s', '× PyTorch (train, score)']];
  for (const r of runs) {
    const t = torch[r.preset];
    const vs = typeof t === 'object' && !r.software ? `${(r.train.tokensPerSec / t.train.tokensPerSec).toFixed(2)}×, ${(r.score.tokensPerSec / t.score.tokensPerSec).toFixed(2)}×` : r.software ? 'n/a (software)' : '–';
    rows.push([r.label, r.preset, r.data, `${f1(r.startToFirstStepSec)} s`, `${f0(r.score.tokensPerSec)} (${f0(r.score.perSec)})`, f0(r.train.tokensPerSec), r.train.stepsPerSec.toFixed(2), vs]);
  }
  for (const [preset, t] of Object.entries(torch)) {
    if (typeof t === 'string') continue;
    rows.push([`PyTorch ${t.torch} CPU, ${t.threads} threads`, preset, 'sample', '–', `${f0(t.score.tokensPerSec)} (${f0(t.score.candidatesPerSec)})`, f0(t.train.tokensPerSec), t.train.stepsPerSec.toFixed(2), '1.00×, 1.00×']);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(`\n${cores} cores, ${chromium}; steady training over ≥ ${SECONDS} s after the first step\n`);
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join('  '));
  console.log('\nwork per training step (window of whole steps after the first ones):');
  for (const r of runs) {
    const c = r.counters;
    const gpu = r.backend === 'webgpu' ? `, ${f1(c.dispatchesPerStep)} dispatches, ${f1(c.submitsPerStep)} submits, ${f1(c.uniformWritesPerStep)} uniform writes, ${f1(c.readbacksPerStep)} readbacks, ${f0(c.uploadBytesPerStep)} B uploaded; pipelines ${c.pipelinesBeforeWindow} before, ${c.pipelinesInWindow} during; GPU pool ${((c.gpuBytesAllocated ?? 0) / 1e6).toFixed(1)} MB vs live tensors ${(c.liveTensorBytes / 1e6).toFixed(1)} MB` : '';
    console.log(`  ${r.label} ${r.preset}: ${f1(c.kernelsPerStep)} kernels${gpu} (over ${c.windowSteps} steps)`);
  }
  console.log('\nvalidation batches scored on other cores (scoring peers):');
  for (const r of runs) console.log(`  ${r.label} ${r.preset}: ${r.counters.scoringPeerBatches}`);
  if (probe) {
    console.log(`\nprobe: ${probe.reason}`);
    for (const p of probe.probes) console.log(`  ${p.backend.padEnd(7)} ${p.available ? `${p.gflops!.toFixed(2)} GFLOP/s, ${p.roundsPerSec!.toFixed(1)} rounds/s, ${p.ms.toFixed(0)} ms` : p.error}`);
  }
  mkdirSync('bench/results', { recursive: true });
  const report = { date: new Date().toISOString(), cores, chromium, seconds: SECONDS, probe, app: runs, pytorch: torch };
  writeFileSync('bench/results/latest.json', `${JSON.stringify(report, null, 2)}\n`);
  console.log('\nwritten: bench/results/latest.json');
}

await main();
