/**
 * Browser benchmarks through the app's real engine worker in headless Chromium (figures only):
 * 1. ingest of a ~30 MB JSONL (the sample repeated with fresh question_ids) with 1 tokenizer worker
 *    against several: read + parse + group, and tokenize, in MB/s;
 * 2. training the tiny preset on the sample: the validation before training, the first step (kernel
 *    compilation), then steps/s, tokens/s and the live tensor count over the next steps.
 * Here WebGPU runs on SwiftShader (a software GPU on the CPU): its timings are not GPU speed.
 * Run: `npm run bench -- browser`.
 */
import { chromium, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, resolveChromium } from '../../e2e/chromium.ts';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS } from '../engine/train/settings.ts';
import type { Command, WorkerEvent } from '../worker/protocol.ts';

type Engine = { events: Array<WorkerEvent & { at: number }>; send(cmd: Command): void; now(): number };
const TRAIN_STEPS = Number(process.env.BENCH_TRAIN_STEPS ?? 20);

function bigFile(): Buffer {
  const lines = readFileSync(join('public', SAMPLE_DATASET_PATH), 'utf8').split('\n').filter((l) => l.trim());
  const copies = Math.round(30e6 / lines.reduce((n, l) => n + l.length + 1, 0));
  const out: string[] = [];
  for (let k = 0; k < copies; k++) for (const l of lines) out.push(JSON.stringify({ ...JSON.parse(l), question_id: `c${k}/${JSON.parse(l).question_id}` }));
  return Buffer.from(`${out.join('\n')}\n`);
}

async function send(page: Page, cmd: Command) {
  // Commands here are plain JSON (no File), which is what crosses into the page.
  await page.evaluate((c) => (window as unknown as { engine: Engine }).engine.send(c as Command), cmd as unknown as Record<string, unknown>);
}

/** Waits for the first event of a type after `from` (index into the event list); an error event aborts. */
async function waitFor<T extends WorkerEvent['type']>(page: Page, type: T, from = 0, pred = 'true'): Promise<Extract<WorkerEvent, { type: T }> & { at: number; index: number }> {
  const handle = await page.waitForFunction(
    ({ type, from, pred }) => {
      const ev = (window as unknown as { engine: Engine }).engine.events;
      for (let i = from; i < ev.length; i++) {
        const e = ev[i] as WorkerEvent & { at: number };
        if (e.type === 'error') return { ...e, index: i };
        // eslint-disable-next-line no-new-func
        if (e.type === type && new Function('e', `return ${pred}`)(e)) return { ...e, index: i };
      }
      return null;
    },
    { type, from, pred },
    { timeout: 30 * 60_000, polling: 200 },
  );
  const e = (await handle.jsonValue()) as WorkerEvent & { at: number; index: number };
  if (e.type === 'error') throw new Error(`engine error: ${e.message}`);
  return e as Extract<WorkerEvent, { type: T }> & { at: number; index: number };
}

async function main() {
  const server = await createServer({ logLevel: 'warn', server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  const base = server.resolvedUrls!.local[0];
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: CHROMIUM_ARGS });
  const file = bigFile();
  try {
    const newEngine = async () => {
      const page = await browser.newPage();
      await page.route('**/__bench__/big.jsonl', (r) => r.fulfill({ body: file, contentType: 'application/x-ndjson' }));
      await page.goto(`${base}e2e/pages/engine.html`);
      await page.waitForFunction(() => 'engine' in window);
      return page;
    };
    const cores = await (await newEngine()).evaluate(() => navigator.hardwareConcurrency);
    console.log(`input: ${(file.length / 1e6).toFixed(1)} MB; browser reports ${cores} cores`);
    for (const workers of [...new Set([1, 2, Math.min(4, Math.max(2, cores))])]) {
      const page = await newEngine();
      await send(page, { type: 'init', tokenizerWorkers: workers });
      const ready = await waitFor(page, 'ready');
      const t0 = await page.evaluate(() => (window as unknown as { engine: Engine }).engine.now());
      await send(page, { type: 'loadData', role: 'train', source: { kind: 'url', url: '/__bench__/big.jsonl', name: 'big.jsonl' } });
      const ds = await waitFor(page, 'dataset', ready.index);
      const { parseSeconds, tokenizeSeconds } = ds.summary.timing;
      const mb = file.length / 1e6;
      console.log(
        `ingest, ${workers} tokenizer worker${workers > 1 ? 's' : ' '}: read+parse ${parseSeconds.toFixed(2)} s (${(mb / parseSeconds).toFixed(1)} MB/s), ` +
          `tokenize ${tokenizeSeconds.toFixed(2)} s (${(mb / tokenizeSeconds).toFixed(1)} MB/s), total ${((ds.at - t0) / 1000).toFixed(2)} s (${(mb / ((ds.at - t0) / 1000)).toFixed(1)} MB/s)`,
      );
      await page.close();
    }

    const page = await newEngine();
    await send(page, { type: 'init' });
    const ready = await waitFor(page, 'ready');
    const adapter = ready.backend.adapter;
    console.log(`training: backend ${ready.backend.backend}${adapter ? ` (${adapter.vendor} ${adapter.architecture})` : ''} — ${ready.backend.reason}`);
    await send(page, { type: 'loadData', role: 'train', source: { kind: 'url', url: `/${SAMPLE_DATASET_PATH}`, name: 'sample' } });
    await waitFor(page, 'dataset', ready.index);
    for (const preset of ['tiny'] as const) {
      const from = await page.evaluate(() => (window as unknown as { engine: Engine }).engine.events.length);
      const t0 = await page.evaluate(() => (window as unknown as { engine: Engine }).engine.now());
      await send(page, { type: 'start', settings: { ...DEFAULT_TRAIN_SETTINGS, preset, model: PRESETS[preset], epochs: 1, lr: 1e-3 } });
      const untrained = await waitFor(page, 'evaluation', from);
      const compiled = await waitFor(page, 'trainState', untrained.index, "e.state === 'training'");
      const first = await waitFor(page, 'progress', compiled.index, 'e.step >= 3');
      const last = await waitFor(page, 'progress', first.index, `e.step >= ${TRAIN_STEPS}`);
      await send(page, { type: 'stop' });
      await waitFor(page, 'complete', last.index);
      console.log(
        `${preset}: validation of the untrained model (${untrained.report.summary.nCandidates} candidates, kernels compiled on the way) ${((untrained.at - t0) / 1000).toFixed(1)} s; ` +
          `first step (more kernel compilation) ${((compiled.at - untrained.at) / 1000).toFixed(1)} s; after it ${last.stepsPerSec.toFixed(2)} steps/s, ` +
          `${last.tokensPerSec.toFixed(0)} tokens/s over ${last.step} steps; live tensors at step ${first.step}: ${first.tensors}, at step ${last.step}: ${last.tensors} (${(last.tensorBytes / 1e6).toFixed(1)} MB)`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
