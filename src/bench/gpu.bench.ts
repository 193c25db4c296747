/**
 * The engine's WebGPU training step on this machine's GPU, headless (figures, no pass/fail): the real
 * engine worker in headless Chromium on the built-in sample, for tiny, small and the paper architecture
 * (d 768) at maxLen 256 and 512 where the adapter's buffer limits allow. Prints the adapter, tokens/s,
 * steps/s and the work counters per step; pipelines are told apart by epoch (the window lies after
 * the first epoch). When a Python with torch sees CUDA, PyTorch trains the same model with the same step on
 * the same GPU (`python -m eorm.bench --device cuda`) and the ratio is printed. Writes bench/results/gpu.json.
 *
 * A software adapter (SwiftShader, llvmpipe, …) is labelled so, runs the tiny preset only, on the sample's
 * first questions (`--all-presets` runs every one), and its figures are never GPU speed. Headless Chromium
 * needs flags to reach a real GPU: `--chromium-args "…"` or EORM_CHROMIUM_ARGS (docs/performance.md has
 * them). `--node` runs the same engine in-process in Node on Dawn's WebGPU instead of Chromium
 * (`--dawn DIR`: the `webgpu` package's folder; `--dawn-flags "backend=vulkan …"`):
 * the route of the GPU kit (src/bench/gpuKit/) to machines with a GPU but no Chromium or Node. There it
 * first runs the numeric checks of the browser parity test on the adapter (`--no-parity`: not), prints
 * them and exits 1 after the figures if one fails.
 *
 *   npm run bench -- gpu
 *   npm run bench -- gpu --presets tiny,paper@512 --seconds 30 --chromium-args "--use-angle=vulkan --enable-features=Vulkan"
 *   bash src/bench/gpuKit/run.sh          (the GPU kit: --node, with its own Node and Dawn)
 *   … --slice 200                         (the sample's first 200 questions on every adapter: a shorter first epoch)
 *   … --checkpoint-every 0                (no checkpoint in the window, as PyTorch's step; the app's default is 50)
 *   … --submit-every 15                   (WebGPU dispatches per submit instead of the app's 64; --node only)
 *   … --replay both                       (each preset without step replay, then with it: before and after in one run; on|off)
 *   … --window-epoch 3                    (the window in epoch 3: past the second recordings of shapes seen once an epoch)
 *   … --profile                           (where a replayed step's GPU time goes, kernel by kernel, at the end of each window)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { GPT2_VOCAB } from '../engine/data/tokenize/gpt2.ts';
import { findPython, runPython } from '../engine/testing/pythonNode.ts';
import { PRESETS, type ModelSettings } from '../engine/train/settings.ts';
import type { AdapterSummary } from '../worker/backend/backendInfo.ts';
import { type AppRun, SAMPLE_PATH, appRun, sampleSlice } from './appRun.ts';
import type { EngineRuntime } from './engineHost.ts';
import { formatCounters } from './formatCounters.ts';
import { type NodeParity, installDawn, nodeParity, nodeRuntime } from './nodeEngine.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const PRESET_LIST = opt('presets', 'tiny,small,paper@256,paper@512').split(',');
const SECONDS = Number(opt('seconds', '20'));
const ALL_PRESETS = argv.includes('--all-presets');
const WITH_PYTHON = !argv.includes('--no-python');
const SLICE_QUESTIONS = Number(opt('slice', '40'));
// Named, the slice is used on a real GPU too: a first epoch of N·0.8 steps instead of the sample's ~1,000.
const SLICE_ALWAYS = argv.includes('--slice');
const CHROMIUM_EXTRA = opt('chromium-args', process.env.EORM_CHROMIUM_ARGS ?? '')
  .split(/\s+/)
  .filter(Boolean);
const IN_NODE = argv.includes('--node');
const DAWN_DIR = opt('dawn', process.env.EORM_DAWN ?? '');
const DAWN_FLAGS = opt('dawn-flags', '').split(/\s+/).filter(Boolean);
const RESULTS = opt('out', 'bench/results/gpu.json');
const WITH_PARITY = IN_NODE && !argv.includes('--no-parity');
/** WebGPU dispatches per submit, to compare with the app's default (Node route only). */
const SUBMIT_EVERY = opt('submit-every', '');
/** The app's checkpoint interval unless given (0: none in the window, as PyTorch's step takes none). */
const CHECKPOINT_EVERY = opt('checkpoint-every', '');
/** WebGPU's step replay: 'on' (the app's default), 'off', or 'both' (each preset without, then with). */
const REPLAY = opt('replay', 'on');
const REPLAY_MODES: boolean[] = REPLAY === 'both' ? [false, true] : [REPLAY !== 'off'];
const PROFILE = argv.includes('--profile');
const WINDOW_EPOCH = Number(opt('window-epoch', '2'));
const FIXTURES = process.env.EORM_FIXTURES ?? resolve('src/engine/testdata/transebm');

/** "paper@512" → the paper architecture at maxLen 512; "tiny" → the preset as it is. */
function presetModel(name: string): ModelSettings {
  const [base, len] = name.split('@');
  const model = PRESETS[base as keyof typeof PRESETS];
  if (!model) throw new Error(`unknown preset "${base}"; have ${Object.keys(PRESETS).join(', ')} (optionally @maxLen)`);
  return len ? { ...model, maxLen: Number(len) } : model;
}

/** The largest buffer a step needs is the token embedding (or its gradient or AdamW moments). */
function fits(model: ModelSettings, a: AdapterSummary): string | null {
  const bytes = GPT2_VOCAB * model.dModel * 4;
  const limit = Math.min(a.maxBufferSize, a.maxStorageBufferBindingSize);
  return bytes <= limit ? null : `the ${(bytes / 2 ** 20).toFixed(0)} MiB embedding exceeds the adapter's ${(limit / 2 ** 20).toFixed(0)} MiB buffer limit`;
}

interface TorchCuda {
  device: string;
  deviceName: string;
  torch: string;
  train: { steps: number; stepsPerSec: number; tokensPerSec: number };
}

/** PyTorch's same step on the CUDA device, or why not. */
function pytorchCuda(name: string, model: ModelSettings, data: string): TorchCuda | string {
  const { python } = findPython();
  if (!python) return 'no Python with torch';
  const probe = spawnSync(python, ['-c', 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)']);
  if (probe.status !== 0) return 'torch sees no CUDA device';
  const preset = name.split('@')[0];
  try {
    const out = runPython(python, [
      '-m',
      'eorm.bench',
      '--data',
      data,
      '--preset',
      preset,
      '--max-len',
      String(model.maxLen),
      '--device',
      'cuda',
      '--steps',
      '1000000',
      '--seconds',
      String(SECONDS),
    ]);
    return JSON.parse(out.trim().split('\n').pop()!) as TorchCuda;
  } catch (e) {
    // The app's figures are already in hand: PyTorch failing is reported beside them, not in their place.
    return `failed: ${String(e).slice(-600)}`;
  }
}

/** The PyTorch-fixture parity on Dawn's adapter, printed before the figures (a real GPU's first check). */
async function checkNumerics(): Promise<NodeParity> {
  process.stdout.write('parity with the PyTorch fixtures on WebGPU… ');
  const p = await nodeParity(FIXTURES);
  console.log(`${p.failures.length === 0 ? 'every check within tolerance' : `${p.failures.length} FAILED`} (${p.seconds.toFixed(1)} s)`);
  for (const line of [...p.summary, ...p.failures.map((f) => `FAILED: ${f}`)]) console.log(`  ${line}`);
  return p;
}

const f0 = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

async function main() {
  const slice = sampleSlice(SLICE_QUESTIONS);
  let runtime: EngineRuntime;
  let host: string;
  let close = async (): Promise<void> => undefined;
  let parity: NodeParity | null = null;
  if (IN_NODE) {
    if (!DAWN_DIR) throw new Error('--node needs --dawn DIR (the folder of the npm package webgpu): bash src/bench/gpuKit/run.sh sets it up from the GPU kit');
    await installDawn(DAWN_DIR, DAWN_FLAGS);
    // Before minutes of training on the CPU backend that the engine would fall back to.
    if (!(await navigator.gpu.requestAdapter()))
      throw new Error(`Dawn found no adapter (see the Vulkan loader's warnings above); see src/bench/gpuKit/README.md for what a real GPU needs`);
    // Imported only now, as the engine is: tfjs-backend-webgpu registers itself at import where navigator.gpu exists.
    if (SUBMIT_EVERY) (await import('../worker/backend/backend.ts')).setSubmitEvery(Number(SUBMIT_EVERY));
    runtime = nodeRuntime();
    if (WITH_PARITY) parity = await checkNumerics();
    host = `Node ${process.version}, Dawn from ${DAWN_DIR}${DAWN_FLAGS.length ? ` (${DAWN_FLAGS.join(' ')})` : ''}${SUBMIT_EVERY ? `, ${SUBMIT_EVERY} dispatches per submit` : ''}`;
  } else {
    // Imported only here: the GPU kit's bundle leaves Chromium's driver (Playwright) and Vite out.
    const { startBenchBrowser } = await import('./enginePage.ts');
    const bench = await startBenchBrowser(CHROMIUM_EXTRA);
    runtime = bench;
    host = `Chromium ${bench.browser.version()}${CHROMIUM_EXTRA.length ? ` (${CHROMIUM_EXTRA.join(' ')})` : ''}`;
    close = bench.close;
  }
  console.log(`engine: ${host}`);
  const runs: AppRun[] = [];
  const skipped: Record<string, string> = {};
  let adapter: AdapterSummary | null = null;
  try {
    for (const name of PRESET_LIST) {
      const model = presetModel(name);
      const why = adapter && fits(model, adapter);
      if (why) {
        skipped[name] = why;
        continue;
      }
      let software = false;
      for (const replay of REPLAY_MODES) {
        process.stdout.write(`app: webgpu ${name}, replay ${replay ? 'on' : 'off'}… `);
        const { run, info } = await appRun(runtime, {
          requested: 'webgpu',
          preset: name,
          model,
          seconds: SECONDS,
          slice,
          sliced: SLICE_ALWAYS,
          pastFirstEpoch: WINDOW_EPOCH,
          replay,
          profile: PROFILE,
          ...(CHECKPOINT_EVERY ? { checkpointEverySteps: Number(CHECKPOINT_EVERY) } : {}),
        });
        if (info.backend !== 'webgpu' || !info.adapter)
          throw new Error(
            `no WebGPU adapter ${IN_NODE ? 'from Dawn' : 'in this Chromium'} (${info.reason}); see docs/performance.md (gpu) for what a real GPU needs`,
          );
        adapter = info.adapter;
        console.log(`${f0(run.train.window.tokensPerSec)} tok/s training${run.software ? ' (software adapter)' : ''}`);
        runs.push(run);
        software = run.software;
      }
      if (software && !ALL_PRESETS) break; // a software adapter: the tiny preset only
    }
  } finally {
    await close();
  }
  const a = adapter!;
  const software = a.software || a.isFallbackAdapter;
  const torch: Record<string, TorchCuda | string> = {};
  // PyTorch trains on the app's data: the sample, or the slice where the app had it.
  let data = resolve(SAMPLE_PATH);
  if (SLICE_ALWAYS) writeFileSync((data = join(tmpdir(), `eorm-gpu-slice-${process.pid}.jsonl`)), slice.bytes);
  if (WITH_PYTHON && !software) for (const r of runs) torch[r.preset] ??= pytorchCuda(r.preset, presetModel(r.preset), data);

  console.log(
    `\nadapter: ${[a.vendor, a.architecture, a.description].filter(Boolean).join(' · ') || 'unknown'}${software ? ' — SOFTWARE adapter (a CPU renderer): these figures are not GPU speed' : ''}`,
  );
  console.log(`limits: maxBufferSize ${f0(a.maxBufferSize / 2 ** 20)} MiB, maxStorageBufferBindingSize ${f0(a.maxStorageBufferBindingSize / 2 ** 20)} MiB`);
  for (const r of runs) {
    const t = torch[r.preset];
    const w = r.train.window;
    const vs =
      typeof t === 'object'
        ? `; PyTorch CUDA (${t.deviceName}) ${f0(t.train.tokensPerSec)} tok/s, app ${(w.tokensPerSec / t.train.tokensPerSec).toFixed(2)}×`
        : t
          ? `; PyTorch CUDA: ${t}`
          : '';
    const validated = w.validations > 0 ? ` (a validation fell in it: ${w.validations})` : '';
    console.log(
      `  ${r.preset}, replay ${r.counters.replay ? 'on' : 'off'} (d ${r.dModel}, maxLen ${r.maxLen}, ${r.data}): ${f0(w.tokensPerSec)} tok/s, ${w.stepsPerSec.toFixed(2)} steps/s over ${w.steps} steps (${w.seconds.toFixed(1)} s) ${WINDOW_EPOCH > 2 ? `in epoch ${WINDOW_EPOCH}` : 'after the first epoch'}, ${r.checkpointEverySteps ? `a checkpoint every ${r.checkpointEverySteps} steps` : 'no checkpoints'}${validated}${vs}`,
    );
    console.log(`    ${formatCounters(r)}`);
    const p = r.replayProfile;
    if (p) {
      const total = p.kernels.reduce((a, k) => a + k.ms, 0);
      console.log(
        `    GPU time of a replayed step (${p.shape}): ${p.stepMs.toFixed(2)} ms; each kind of kernel alone: ${p.kernels
          .slice(0, 10)
          .map((k) => `${k.kernel} ×${k.dispatches} ${k.ms.toFixed(2)} ms`)
          .join(', ')}${p.kernels.length > 10 ? `, ${p.kernels.length - 10} more` : ''} (sum ${total.toFixed(2)} ms)`,
      );
    }
  }
  for (const [name, why] of Object.entries(skipped)) console.log(`  ${name}: not run, ${why}`);
  mkdirSync(dirname(RESULTS), { recursive: true });
  const report = {
    date: new Date().toISOString(),
    engine: host,
    chromiumArgs: IN_NODE ? null : CHROMIUM_EXTRA,
    adapter: a,
    software,
    parity,
    seconds: SECONDS,
    app: runs,
    skipped,
    pytorchCuda: torch,
  };
  writeFileSync(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten: ${RESULTS}`);
  if (parity && parity.failures.length > 0) {
    console.log(`\nNUMERICS FAILED on this adapter (${parity.failures.length}): see the parity lines above`);
    process.exitCode = 1;
  }
}

await main();
