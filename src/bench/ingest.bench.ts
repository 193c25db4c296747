/**
 * Ingest benchmark (figures only, no assertions): a ~30 MB JSONL made of the built-in sample
 * repeated with fresh question_ids; times parse + validate + group, then tokenization in-process
 * and on 1..N worker_threads. Repeated text is ideal for gpt-tokenizer's merge cache (pre-tokens
 * seen before cost a Map lookup), so tokenization is also timed with that cache off: real files
 * of distinct answers land between the two. Run from the repo root: `npm run bench -- ingest`
 * (optionally followed by another JSONL file to repeat instead of the sample).
 * This file is also its own worker script (the worker_threads branch at the bottom).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { DEFAULT_MERGE_CACHE_SIZE, setMergeCacheSize } from 'gpt-tokenizer/encoding/r50k_base';
import { GPT2_EOT } from '../engine/data/tokenize/gpt2.ts';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { bytesStream, readDataset } from '../engine/data/testing/node.ts';
import { tokenizeDataset } from '../engine/data/tokenize/tokenizeDataset.ts';
import { answerTokenizeRequest, createWorkerPool, inProcessPool, type TokenizePool, type TokenizeWorker } from '../engine/data/tokenize/tokenizePool.ts';
import type { TokenizeReply, TokenizeRequest } from '../engine/data/tokenize/tokenizeProtocol.ts';
import type { Dataset, TokenizedSet } from '../engine/data/types.ts';

const TARGET_BYTES = 30e6;
const SETTINGS = { maxLen: 2048, clsId: GPT2_EOT, sepId: GPT2_EOT };

/** The sample repeated until ~30 MB, each copy under its own question_id prefix so groups stay distinct. */
function buildInput(path: string): { bytes: Uint8Array; copies: number } {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const size = Buffer.byteLength(lines.join('\n')) + 1;
  const copies = Math.max(1, Math.round(TARGET_BYTES / size));
  const out: string[] = [];
  for (let k = 0; k < copies; k++) {
    for (const line of lines) {
      const row = JSON.parse(line) as Record<string, unknown>;
      row.question_id = `copy${k}/${String(row.question_id ?? row.question)}`;
      out.push(JSON.stringify(row));
    }
  }
  return { bytes: new TextEncoder().encode(`${out.join('\n')}\n`), copies };
}

/** worker_threads speaks EventEmitter ('message' with the bare data), not EventTarget: adapt it. */
function nodeWorker(mergeCache: boolean): { worker: TokenizeWorker; terminate: () => Promise<number> } {
  const w = new Worker(new URL(import.meta.url), { workerData: { mergeCache } });
  // One implementation behind TokenizeWorker's two overloads: `type` decides the event's shape.
  const addEventListener = ((type: 'message' | 'error', listener: (event: object) => void) => {
    if (type === 'message') w.on('message', (data: TokenizeReply) => listener({ data }));
    else w.on('error', (err: Error) => listener({ message: err.message }));
  }) as TokenizeWorker['addEventListener'];
  return { worker: { postMessage: (request) => w.postMessage(request), addEventListener }, terminate: () => w.terminate() };
}

const mb = (bytes: number) => bytes / 1e6;
const fmt = (x: number, digits = 2) => x.toFixed(digits);

async function timeTokenize(label: string, ds: Dataset, pool: TokenizePool, fileBytes: number): Promise<TokenizedSet> {
  const t0 = performance.now();
  const tokens = await tokenizeDataset(ds, SETTINGS, pool);
  const s = (performance.now() - t0) / 1000;
  console.log(
    `${label.padEnd(44)} ${fmt(s).padStart(6)} s  ${fmt(mb(fileBytes) / s).padStart(6)} MB/s  ${fmt(tokens.tokens.length / s / 1e6).padStart(5)} M tokens/s`,
  );
  return tokens;
}

const sameTokens = (a: TokenizedSet, b: TokenizedSet) =>
  a.truncated === b.truncated &&
  a.tokens.length === b.tokens.length &&
  a.tokens.every((v, i) => v === b.tokens[i]) &&
  a.offsets.every((v, i) => v === b.offsets[i]);

async function main(): Promise<void> {
  const source = process.argv[2] ?? join('public', SAMPLE_DATASET_PATH);
  const { bytes, copies } = buildInput(source);
  const cores = availableParallelism();
  console.log(`input: ${fmt(mb(bytes.length), 1)} MB (${source} × ${copies}), ${cores} cores, node ${process.version}`);

  const t0 = performance.now();
  const ds = await readDataset(bytesStream(bytes), { totalBytes: bytes.length });
  const ingestS = (performance.now() - t0) / 1000;
  console.log(`lines: ${ds.report.linesRead}, groups: ${ds.groups.length}, rejected: ${ds.report.rejected}`);
  console.log(
    `${'ingest (parse + validate + group)'.padEnd(44)} ${fmt(ingestS).padStart(6)} s  ${fmt(mb(bytes.length) / ingestS).padStart(6)} MB/s  ${fmt(ds.report.linesRead / ingestS / 1000, 1)} k lines/s`,
  );

  // The first encode loads the BPE ranks; keep that one-off cost out of the throughput figures.
  const warm = { ...SETTINGS, questions: ['warm up'], groupSizes: [1], genTexts: ['warm up'] };
  await inProcessPool().run(warm);
  let reference: TokenizedSet | null = null;
  let identical = true;
  for (const mergeCache of [true, false]) {
    console.log(`-- gpt-tokenizer merge cache ${mergeCache ? 'on (default)' : 'off'}`);
    setMergeCacheSize(mergeCache ? DEFAULT_MERGE_CACHE_SIZE : 0);
    const local = await timeTokenize('tokenize, in-process (1 thread)', ds, inProcessPool(), bytes.length);
    reference ??= local;
    identical &&= sameTokens(local, reference);
    for (const n of [...new Set([1, 2, Math.min(cores, 4)])]) {
      const started = performance.now();
      const workers = Array.from({ length: n }, () => nodeWorker(mergeCache));
      const pool = createWorkerPool(workers.map((w) => w.worker));
      await Promise.all(workers.map(() => pool.run(warm)));
      const startupS = (performance.now() - started) / 1000;
      const tokens = await timeTokenize(`tokenize, ${n} worker_thread${n > 1 ? 's' : ''} (+${fmt(startupS)} s start)`, ds, pool, bytes.length);
      identical &&= sameTokens(tokens, reference);
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }
  setMergeCacheSize(DEFAULT_MERGE_CACHE_SIZE);
  console.log(
    `tokens: ${reference!.tokens.length} (${fmt(reference!.tokens.length / ds.candidateCount, 0)} per candidate), truncated at ${SETTINGS.maxLen}: ${reference!.truncated}`,
  );
  console.log(`identical tokens for every pool: ${identical ? 'yes' : 'NO'}`);
}

if (isMainThread) {
  await main();
} else {
  if (!(workerData as { mergeCache: boolean }).mergeCache) setMergeCacheSize(0);
  parentPort!.on('message', (request: TokenizeRequest) => {
    const { reply, transfer } = answerTokenizeRequest(request);
    parentPort!.postMessage(reply, transfer);
  });
}
