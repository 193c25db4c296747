/**
 * Issue 33 §3: a picks run at scale in a tab. A file of `--questions` (default 20,000) questions × 16 long
 * answers without labels or gold (about 300 MB at the default size), built from the real 16-answer file's
 * texts (each copy of a question numbered, so no two inputs are the same), is loaded into the app's engine
 * worker in headless Chromium (WASM), picked with an untrained tiny-preset model (the speed does not depend on
 * the weights), and the tab's peak memory sampled as the speed bench samples it. Prints load and pick times,
 * candidates/s and tokens/s beside the speed bench's last scoring rate (bench/results/latest.json).
 * `--pick-limit K` cancels the run once K questions are picked (the tab's memory is then measured over the
 * whole load and a stretch of picking, whose rate gives the full run's time, printed as an estimate).
 * The file reaches the engine as a user's dropped file does (a File, read as a stream); `--source url` loads
 * it as a download instead (as the built-in sample is loaded), whose body Chromium buffers in the worker
 * (measured: 100–300 MiB more). `--memory` prints Chromium's account of the tab's memory (memoryDump.ts)
 * once loaded and once picked.
 *   npm run bench -- picks [--questions N] [--min-chars C] [--pick-limit K] [--source file|url] [--memory]
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeModel } from '../engine/io/modelFile.ts';
import { disposeParams, initParams, paramsToArrays } from '../engine/model/params.ts';
import { PRESETS, modelConfigFor } from '../engine/train/settings.ts';
import { newEnginePage, send, startBenchBrowser, waitFor } from './enginePage.ts';
import { memoryDump } from './memoryDump.ts';
import { longAnswers } from './longAnswers.ts';
import { sampleRendererPeak } from './rendererMemory.ts';
import { activeProfile } from '../engine/backend/profile.ts';

const REAL_PATH = 'bench/data/zeroeval-gsm8k-16cand-first200.jsonl';
const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const QUESTIONS = arg('--questions', 20_000);
// Answers of at least 500 characters (about 950 bytes a line): 20,000 × 16 of them are about 300 MB.
const MIN_CHARS = arg('--min-chars', 500);
const PICK_LIMIT = arg('--pick-limit', Infinity);
const SOURCE = argv.includes('--source') ? argv[argv.indexOf('--source') + 1] : 'file';
const MEMORY = argv.includes('--memory');
if (SOURCE !== 'file' && SOURCE !== 'url') throw new Error(`--source ${SOURCE}: give file or url`);

/** `questions` questions × 16 long answers without label or gold, as JSONL bytes. */
function picksFile(): Buffer {
  const base = longAnswers(readFileSync(REAL_PATH, 'utf8'), MIN_CHARS)
    .trim()
    .split('\n')
    .map((l) => {
      const { label: _l, gold: _g, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest as { question: string; question_id: string };
    });
  const perQuestion = new Map<string, Array<{ question: string; question_id: string }>>();
  for (const line of base) perQuestion.set(line.question_id, [...(perQuestion.get(line.question_id) ?? []), line]);
  const groups = [...perQuestion.values()];
  const parts: string[] = [];
  for (let q = 0; q < QUESTIONS; q++) {
    const g = groups[q % groups.length];
    for (const line of g) parts.push(JSON.stringify({ ...line, question_id: `${q}`, question: `(${q}) ${line.question}` }));
  }
  return Buffer.from(`${parts.join('\n')}\n`);
}

async function tinyModel(): Promise<string> {
  const p = PRESETS.tiny;
  const cfg = modelConfigFor({ ...p, dropout: 0 });
  const params = initParams(cfg, 1);
  const tensors = await paramsToArrays(params, activeProfile());
  disposeParams(params);
  return Buffer.from(writeModel({ cfg, tensors })).toString('base64');
}

function lastScoringRate(): string {
  try {
    const latest = JSON.parse(readFileSync('bench/results/latest.json', 'utf8')) as {
      date: string;
      app: Array<{ shape: string; label: string; preset: string; score: { perSec: number; tokensPerSec: number } }>;
    };
    return latest.app
      .map(
        (r) =>
          `${r.shape} · ${r.label} · ${r.preset}: ${r.score.perSec.toFixed(0)} candidates/s, ${r.score.tokensPerSec.toFixed(0)} tokens/s (speed bench, ${latest.date})`,
      )
      .join('\n');
  } catch {
    return 'no speed bench results (bench/results/latest.json)';
  }
}

/** The tab's allocators of 4 MiB or more: the process that runs the engine's workers. */
async function printMemory(b: { browser: Parameters<typeof memoryDump>[0] }, when: string): Promise<void> {
  const processes = [...(await memoryDump(b.browser)).values()];
  const total = (rows: Array<[string, number]>) => rows.reduce((n, [, v]) => n + v, 0);
  const tab = processes.filter((rows) => rows.some(([n]) => n.startsWith('v8/workers'))).sort((x, y) => total(y) - total(x))[0] ?? [];
  console.log(
    `tab memory ${when} (Chromium's memory-infra, MiB): ${tab
      .filter(([, v]) => v >= 4)
      .map(([n, v]) => `${n} ${v.toFixed(0)}`)
      .join(', ')}`,
  );
}

async function main() {
  const file = picksFile();
  console.log(`picks file: ${QUESTIONS.toLocaleString('en-US')} questions × 16 answers, ${(file.length / 2 ** 20).toFixed(0)} MiB`);
  // Served from disk by the bench's Vite server (a route's body this large crosses the protocol whole).
  const dir = resolve('node_modules/.cache/eorm-bench');
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, 'picks-scale.jsonl');
  writeFileSync(path, file);
  const model = await tinyModel();
  const b = await startBenchBrowser();
  let memory = sampleRendererPeak();
  try {
    const page = await newEnginePage(b);
    await send(page, { type: 'init', backend: 'wasm' });
    await waitFor(page, 'ready');
    await page.evaluate(
      ({ b64 }) => {
        const bin = atob(b64);
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        (window as unknown as { engine: { send(c: unknown): void } }).engine.send({ type: 'import', bytes: bytes.buffer, fileName: 'tiny.safetensors' });
      },
      { b64: model },
    );
    await waitFor(page, 'models');
    const t0 = Date.now();
    const url = `${b.base}@fs${path}`;
    if (SOURCE === 'url') await send(page, { type: 'loadData', role: 'train', source: { kind: 'url', url, name: 'picks.jsonl' } });
    else {
      // A File as a drop gives one: its bytes are held by the browser process (the blob store), not the tab.
      await page.evaluate(async (u) => {
        const file = new File([await (await fetch(u)).blob()], 'picks.jsonl');
        (window as unknown as { engine: { send(c: unknown): void } }).engine.send({ type: 'loadData', role: 'train', source: { kind: 'file', file } });
      }, url);
    }
    await waitFor(page, 'dataset');
    const loadSec = (Date.now() - t0) / 1000;
    if (MEMORY) await printMemory(b, 'loaded');
    // The load's own peak, and the picking's from here on.
    const loadPeak = memory.stop();
    memory = sampleRendererPeak();
    const t1 = Date.now();
    await send(page, { type: 'picks', set: 'picks', rule: 'recommended' });
    const hours = 4 * 60 * 60_000;
    if (Number.isFinite(PICK_LIMIT)) {
      await waitFor(page, 'picksProgress', 0, `e.done >= ${PICK_LIMIT} || e.state === 'done' || e.state === 'error'`, hours);
      if (MEMORY) await printMemory(b, 'picking');
      await send(page, { type: 'picksControl', action: 'cancel' });
    }
    const end = await waitFor(page, 'picksProgress', 0, "e.state === 'done' || e.state === 'cancelled' || e.state === 'error'", hours);
    const pickSec = (Date.now() - t1) / 1000;
    if (MEMORY && !Number.isFinite(PICK_LIMIT)) await printMemory(b, 'picked');
    const peak = memory.stop();
    if (end.state === 'error') throw new Error(`picks failed: ${end.message}`);
    const candidates = end.done * 16;
    console.log(`load (read, parse, group; as a ${SOURCE === 'file' ? 'dropped file' : 'download'}): ${loadSec.toFixed(1)} s`);
    console.log(
      `pick ${end.done.toLocaleString('en-US')} of ${end.total.toLocaleString('en-US')} questions (tokenize + score + pick, chunk by chunk): ${pickSec.toFixed(1)} s, ${(candidates / pickSec).toFixed(0)} candidates/s, ${(end.done / pickSec).toFixed(1)} questions/s`,
    );
    if (end.state === 'cancelled')
      console.log(
        `cancelled at --pick-limit: the whole file at this rate would take about ${(((end.total / end.done) * pickSec) / 60).toFixed(0)} min (estimate)`,
      );
    const mib = (x: number | null) => (x === null ? 'not measured (no /proc)' : `${x.toFixed(0)} MiB`);
    console.log(`tab peak memory: ${mib(loadPeak)} while loading, ${mib(peak)} while picking (target < 1.5 GB = 1,431 MiB)`);
    console.log(`beside the speed bench's scoring rate (its shapes, tiny preset):\n${lastScoringRate()}`);
  } finally {
    const peak = memory.stop();
    console.log(`(tab peak so far: ${peak === null ? '–' : `${peak.toFixed(0)} MiB`})`);
    await b.close();
    rmSync(path, { force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
