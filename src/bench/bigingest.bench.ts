/**
 * A 300 MB JSONL of distinct texts through the app's real engine worker in headless Chromium, the way a
 * user's file arrives (a File read from disk, streamed): does the tab survive, how fast (MB/s), and
 * how much memory (peak resident set of the tab's renderer process, which holds the page, the engine
 * worker and the tokenizer workers: JS heaps, buffers and WASM alike; from /proc, so Linux only).
 * The file is the sample with every number redrawn and a made-up word per line, so that neither the
 * groups nor the tokenizer's merge cache repeat; it is written to the OS temp folder and deleted after.
 * Run: `npm run bench -- bigingest` (`-- bigingest 50` for another size in MB).
 */
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import type { Command } from '../worker/protocols/commands.ts';
import { type BenchBrowser, newEnginePage, now, send, startBenchBrowser, waitFor } from './enginePage.ts';
import { procMiB } from './rendererMemory.ts';

const TARGET_MB = Number(process.argv[2] ?? 300);
const SYLLABLES = ['ka', 'lo', 'mer', 'ti', 'zan', 'qu', 've', 'dor', 'sil', 'bra', 'nu', 'fex'];

/** Seeded 32-bit generator (mulberry32): the same file on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Writes copies of the sample until `targetBytes`; each copy redraws every number (same digit count) and adds a made-up word. */
async function writeDistinctFile(path: string, targetBytes: number): Promise<{ bytes: number; lines: number }> {
  type Row = { question: string; question_id: string; gen_text: string; [k: string]: unknown };
  const rows = readFileSync(join('public', SAMPLE_DATASET_PATH), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
  const rand = rng(42);
  const word = () => Array.from({ length: 3 + Math.floor(rand() * 3) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');
  const redraw = (s: string) => s.replace(/\d+/g, (m) => String(Math.floor(10 ** (m.length - 1) + rand() * 9 * 10 ** (m.length - 1))));
  const out = createWriteStream(path);
  let bytes = 0;
  let lines = 0;
  for (let copy = 0; bytes < targetBytes; copy++) {
    const questions = new Map<string, string>(); // one redrawn question per group
    const batch: string[] = [];
    for (const r of rows) {
      let question = questions.get(r.question_id);
      if (question === undefined) questions.set(r.question_id, (question = `${redraw(r.question)} (${word()})`));
      batch.push(JSON.stringify({ ...r, question, question_id: `c${copy}/${r.question_id}`, gen_text: `${word()}: ${redraw(r.gen_text)}` }));
    }
    const text = `${batch.join('\n')}\n`;
    bytes += Buffer.byteLength(text);
    lines += batch.length;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { bytes, lines };
}

/** The renderer processes' pids; with one page open, the largest of them is the tab. */
async function rendererPids(bench: BenchBrowser): Promise<number[]> {
  const cdp = await bench.browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  return processInfo.filter((p) => p.type === 'renderer' && existsSync(`/proc/${p.id}/status`)).map((p) => p.id);
}

/** Sends loadData with the File the page's own file input holds (cloned to the worker, as the app does). */
async function loadFromInput(page: Page, path: string): Promise<void> {
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { type: 'file', id: 'bench-file' })));
  await page.setInputFiles('#bench-file', path);
  await page.evaluate(() => {
    const file = (document.getElementById('bench-file') as HTMLInputElement).files![0];
    const cmd: Command = { type: 'loadData', role: 'train', source: { kind: 'file', file } };
    (window as unknown as { engine: { send(c: Command): void } }).engine.send(cmd);
  });
}

/** The latest ingest progress event, in words. */
async function lastProgress(page: Page): Promise<string | null> {
  return page
    .evaluate(() => {
      const events = (window as unknown as { engine: { events: Array<{ type: string; phase?: string; done?: number; total?: number; lines?: number }> } })
        .engine.events;
      const p = [...events].reverse().find((e) => e.type === 'ingestProgress');
      return p ? `${p.phase} ${p.done!.toLocaleString('en')} / ${p.total!.toLocaleString('en')} (${p.lines!.toLocaleString('en')} lines)` : null;
    })
    .catch(() => null);
}

async function main() {
  const path = join(tmpdir(), `eorm-bigingest-${TARGET_MB}MB.jsonl`);
  try {
    await run(path);
  } finally {
    rmSync(path, { force: true });
  }
}

async function run(path: string) {
  const g0 = performance.now();
  const file = await writeDistinctFile(path, TARGET_MB * 1e6);
  const mb = file.bytes / 1e6;
  console.log(
    `input: ${mb.toFixed(1)} MB, ${file.lines.toLocaleString('en')} lines of distinct text (written in ${((performance.now() - g0) / 1000).toFixed(1)} s)`,
  );
  const bench = await startBenchBrowser();
  try {
    const page = await newEnginePage(bench);
    // Either would leave the wait below polling a page whose engine never got the file.
    const lost = new Promise<never>((_, reject) => {
      page.on('crash', () => reject(new Error('the tab crashed')));
      page.on('load', () => reject(new Error('the page reloaded (the dev server re-optimized its dependencies?)')));
    });
    await send(page, { type: 'init', backend: 'wasm' });
    const ready = await Promise.race([waitFor(page, 'ready'), lost]);
    const pids = await rendererPids(bench);
    const baseline = Math.max(...pids.map((p) => procMiB(p, 'VmRSS')));
    let peakSampled = baseline;
    const sampler = setInterval(() => {
      for (const p of pids) if (existsSync(`/proc/${p}/status`)) peakSampled = Math.max(peakSampled, procMiB(p, 'VmRSS'));
    }, 100);
    // A line every 10 s, so that a slow or stuck phase shows where it is.
    const reporter = setInterval(
      () => void lastProgress(page).then((p) => p && console.log(`  … ${p}; renderer RSS ${peakSampled.toFixed(0)} MiB peak so far`)),
      10_000,
    );
    try {
      const t0 = await now(page);
      await loadFromInput(page, path);
      const ds = await Promise.race([waitFor(page, 'dataset', ready.index), lost]);
      const total = (ds.at - t0) / 1000;
      const { parseSeconds, tokenizeSeconds, workers } = ds.summary.timing;
      const stats = ds.summary.stats;
      const peak = Math.max(...pids.filter((p) => existsSync(`/proc/${p}/status`)).map((p) => procMiB(p, 'VmHWM')));
      const after = Math.max(...pids.map((p) => procMiB(p, 'VmRSS')));
      console.log(
        `loaded: ${stats.lines.read.toLocaleString('en')} lines, ${stats.groups.toLocaleString('en')} groups, ${stats.candidates.toLocaleString('en')} candidates; ` +
          `${workers} tokenizer worker${workers === 1 ? '' : 's'}`,
      );
      console.log(
        `time: read+parse+group ${parseSeconds.toFixed(1)} s (${(mb / parseSeconds).toFixed(1)} MB/s), tokenize ${tokenizeSeconds.toFixed(1)} s (${(mb / tokenizeSeconds).toFixed(1)} MB/s), ` +
          `file → dataset event ${total.toFixed(1)} s (${(mb / total).toFixed(1)} MB/s)`,
      );
      console.log(
        `renderer process memory (RSS): ${baseline.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB (VmHWM; sampled every 100 ms: ${peakSampled.toFixed(0)} MiB), ` +
          `${after.toFixed(0)} MiB once loaded; peak − before = ${(peak - baseline).toFixed(0)} MiB = ${((peak - baseline) / (file.bytes / 2 ** 20)).toFixed(2)}× the file`,
      );
    } finally {
      clearInterval(sampler);
      clearInterval(reporter);
    }
  } finally {
    await bench.close();
  }
}

await main();
