/**
 * Training and scoring speed of the app, per backend and preset, against PyTorch on the same CPU, in one
 * run (figures, no pass/fail), on three shapes of data:
 * - sample: the built-in sample, 4 short answers per question (median 122 tokens);
 * - 16 answers: 16 chat models' answers to each of the first 200 GSM8K questions (bench/data/);
 * - long answers: the same groups with answers joined until most reach the token cap (longAnswers.ts).
 * The sample runs on every backend; the real shapes on the auto-chosen one. The app side is the real
 * engine worker in headless Chromium: the start-up probe's figures and choice; time from Start to the
 * first training step (the validation of the untrained model included where it is not scored alongside
 * the first steps); scoring of the validation split by the stopped run's weights (candidates/s, tokens/s); training over a window of whole steps between two pauses, every step in it
 * finished (steps/s, real tokens/s, no padding counted; see appRun.ts). The PyTorch side runs the same
 * model, data and step (`python -m eorm.bench`) when a Python with torch is found; its BLAS is named.
 * Writes bench/results/latest.json. Software GPU adapters (SwiftShader, llvmpipe) and the CPU backend are
 * far slower: they run the tiny preset on the sample's first 40 questions only, and are labelled so.
 * Their timings are not GPU speed.
 *
 *   npm run bench                                  # 3 shapes; auto, wasm, webgpu, cpu × tiny, small on the sample; PyTorch
 *   npm run bench -- speed --shapes long --presets small --backends auto
 *   npm run bench -- speed --presets tiny --backends auto,wasm --seconds 10 --no-python
 *   npm run bench -- speed --backends webgpu --presets tiny --slice 300 --seconds 120   # a longer software window
 *   npm run bench -- speed --data FILE.jsonl --slice 200   # a file of your shape (its first 200 questions) instead
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { INSTALL_TORCH, findPython, runPython } from '../engine/testing/pythonNode.ts';
import { PRESETS } from '../engine/train/settings.ts';
import type { BackendChoice, BackendInfo } from '../worker/backend/backendInfo.ts';
import { type AppRun, SAMPLE_PATH, appRun, sampleSlice } from './appRun.ts';
import { longAnswers } from './longAnswers.ts';
import { startBenchBrowser } from './enginePage.ts';
import { formatCounters } from './formatCounters.ts';
import { sampleRendererPeak } from './rendererMemory.ts';

type Preset = 'tiny' | 'small';
const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const PRESET_LIST = opt('presets', 'tiny,small').split(',') as Preset[];
const BACKENDS = opt('backends', 'auto,wasm,webgpu,cpu').split(',') as BackendChoice[];
const SECONDS = Number(opt('seconds', '20'));
/** Seconds between the file's load and Start (a user reading its summary): the scoring workers start meanwhile. */
const SETTLE = Number(opt('settle', '0'));
const WITH_PYTHON = !argv.includes('--no-python');
/** Questions of the sample that software adapters and the CPU backend train on. */
const SLOW_SLICE_QUESTIONS = Number(opt('slice', '40'));
/** Another file (e.g. many long answers per question): its first --slice questions, on every backend and in PyTorch, instead of the shapes. */
const DATA = opt('data', '');
const SHAPES = opt('shapes', 'sample,real,long').split(',') as ShapeName[];
const REAL_PATH = 'bench/data/zeroeval-gsm8k-16cand-first200.jsonl';

type ShapeName = 'sample' | 'real' | 'long';
interface Shape {
  /** In the table. */
  label: string;
  /** What the app trains on where it trains on a slice (every backend for the real shapes). */
  slice: { questions: number; bytes: Buffer; name?: string };
  /** The same bytes for PyTorch. */
  torchData: string;
  backends: BackendChoice[];
  sliced: boolean;
}

function shapes(): Shape[] {
  const dir = mkdtempSync(join(tmpdir(), 'eorm-speed-'));
  const own = (name: string, label: string, text: string, questions: number, backends: BackendChoice[]): Shape => {
    const slice = sampleSlice(questions, text, name);
    const torchData = join(dir, `${name}.jsonl`);
    writeFileSync(torchData, slice.bytes);
    return { label, slice, torchData, backends, sliced: true };
  };
  if (DATA) return [own(basename(DATA), basename(DATA), readFileSync(DATA, 'utf8'), SLOW_SLICE_QUESTIONS, BACKENDS)];
  const real = () => readFileSync(REAL_PATH, 'utf8');
  // The real shapes on the auto-chosen backend only (what a user gets), unless --backends names others.
  const realBackends = argv.includes('--backends') ? BACKENDS : (['auto'] as BackendChoice[]);
  return SHAPES.map((name) => {
    switch (name) {
      case 'sample':
        return { label: 'sample', slice: sampleSlice(SLOW_SLICE_QUESTIONS), torchData: resolve(SAMPLE_PATH), backends: BACKENDS, sliced: false };
      case 'real':
        return own('16 answers', '16 answers (200 q)', real(), 200, realBackends);
      case 'long':
        return own('long answers', 'long answers (200 q)', longAnswers(real()), 200, realBackends);
      default:
        throw new Error(`unknown shape "${name}": sample, real, long`);
    }
  });
}

interface TorchRun {
  preset: Preset;
  torch: string;
  threads: number;
  /** The BLAS library torch loaded (OpenBLAS and the reference BLAS differ several-fold). */
  blas: string;
  train: { steps: number; stepsPerSec: number; tokensPerSec: number };
  score: { candidates: number; tokens: number; seconds: number; candidatesPerSec: number; tokensPerSec: number };
}

function pytorch(preset: Preset, threads: number, data: string): TorchRun | string {
  const { python, tried } = findPython();
  if (!python) return `no Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`;
  const out = runPython(python, ['-m', 'eorm.bench', '--data', data, '--preset', preset, '--threads', String(threads), '--seconds', String(SECONDS)]);
  return JSON.parse(out.trim().split('\n').pop()!) as TorchRun;
}

const f0 = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
const f1 = (x: number) => x.toFixed(1);

async function main() {
  const cores = availableParallelism();
  const shapeList = shapes();
  const runs: Array<AppRun & { shape: string; peakMiB: number | null }> = [];
  let probe: BackendInfo | null = null;
  const bench = await startBenchBrowser();
  const chromium = bench.browser.version();
  try {
    for (const shape of shapeList) {
      for (const requested of shape.backends) {
        for (const preset of PRESET_LIST) {
          process.stdout.write(`app: ${shape.label} ${requested} ${preset}… `);
          const memory = sampleRendererPeak();
          const { run, info } = await appRun(bench, {
            requested,
            preset,
            model: PRESETS[preset],
            seconds: SECONDS,
            settleSeconds: SETTLE,
            slice: shape.slice,
            sliced: shape.sliced,
          });
          const peakMiB = memory.stop();
          if (requested === 'auto') probe ??= info;
          console.log(`${f0(run.train.window.tokensPerSec)} tok/s training`);
          runs.push({ ...run, shape: shape.label, peakMiB });
          if (run.software) break; // slow backends: the tiny preset only
        }
      }
    }
  } finally {
    await bench.close();
  }
  const torch: Record<string, TorchRun | string> = {};
  const key = (shape: string, preset: string) => `${shape} ${preset}`;
  if (WITH_PYTHON) {
    for (const shape of shapeList) {
      for (const preset of PRESET_LIST) {
        process.stdout.write(`PyTorch ${shape.label} ${preset}… `);
        const t = pytorch(preset, cores, shape.torchData);
        torch[key(shape.label, preset)] = t;
        console.log(typeof t === 'string' ? t : `${f0(t.train.tokensPerSec)} tok/s training`);
      }
    }
  }

  const rows: string[][] = [
    ['shape', 'backend', 'preset', 'Start→1st step', 'score tok/s (cand/s)', 'train tok/s', 'steps/s', '× PyTorch (train, from step 10, score)', 'tab peak'],
  ];
  for (const r of runs) {
    const t = torch[key(r.shape, r.preset)];
    const vs =
      typeof t === 'object' && !r.software
        ? `${(r.train.window.tokensPerSec / t.train.tokensPerSec).toFixed(2)}×, ${r.train.fromStep10 ? `${(r.train.fromStep10.tokensPerSec / t.train.tokensPerSec).toFixed(2)}×` : '–'}, ${(r.score.tokensPerSec / t.score.tokensPerSec).toFixed(2)}×`
        : r.software
          ? 'n/a (software)'
          : '–';
    const shape = r.software && r.shape === 'sample' ? `sample, first ${SLOW_SLICE_QUESTIONS} q` : r.shape;
    const peak = r.peakMiB === null ? '–' : `${f0(r.peakMiB)} MiB`;
    rows.push([
      shape,
      r.label,
      r.preset,
      `${f1(r.startToFirstStepSec)} s${r.startToUntrainedValidationSec > r.startToFirstStepSec ? ` (validated at ${f1(r.startToUntrainedValidationSec)} s)` : ''}${r.startToAllCoresBusySec === null ? '' : `, all cores busy at ${f1(r.startToAllCoresBusySec)} s`}`,
      `${f0(r.score.tokensPerSec)} (${f0(r.score.perSec)})`,
      f0(r.train.window.tokensPerSec),
      r.train.window.stepsPerSec.toFixed(2),
      vs,
      peak,
    ]);
  }
  for (const [k, t] of Object.entries(torch)) {
    if (typeof t === 'string') continue;
    const shape = k.slice(0, k.lastIndexOf(' '));
    rows.push([
      shape,
      `PyTorch ${t.torch} CPU, ${t.threads} threads, ${t.blas}`,
      t.preset,
      '–',
      `${f0(t.score.tokensPerSec)} (${f0(t.score.candidatesPerSec)})`,
      f0(t.train.tokensPerSec),
      t.train.stepsPerSec.toFixed(2),
      '1.00×, 1.00×, 1.00×',
      '–',
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(
    `\n${cores} cores, ${chromium}; Start ${SETTLE} s after the file's load; training over a window of whole steps between two pauses (up to ${SECONDS} s after the first step)\n`,
  );
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join('  '));
  console.log('\nwork per training step (window of whole steps after the first ones):');
  for (const r of runs) console.log(`  ${r.shape}, ${r.label} ${r.preset}: ${formatCounters(r)}`);
  console.log('\nvalidation batches scored on other cores (scoring peers):');
  for (const r of runs) console.log(`  ${r.shape}, ${r.label} ${r.preset}: ${r.counters.scoringPeerBatches}`);
  if (probe) {
    console.log(`\nprobe: ${probe.reason}`);
    for (const p of probe.probes)
      console.log(
        `  ${p.backend.padEnd(7)} ${p.available ? `${p.gflops!.toFixed(2)} GFLOP/s, ${p.roundsPerSec!.toFixed(1)} rounds/s, ${p.ms.toFixed(0)} ms` : p.error}`,
      );
  }
  mkdirSync('bench/results', { recursive: true });
  const report = { date: new Date().toISOString(), cores, chromium, seconds: SECONDS, settleSeconds: SETTLE, probe, app: runs, pytorch: torch };
  writeFileSync('bench/results/latest.json', `${JSON.stringify(report, null, 2)}\n`);
  console.log('\nwritten: bench/results/latest.json');
}

await main();
