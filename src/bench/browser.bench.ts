/**
 * Browser ingest benchmark through the app's real engine worker in headless Chromium (figures only):
 * a ~30 MB JSONL (the sample repeated with fresh question_ids) with 1 tokenizer worker against several:
 * read + parse + group, and tokenize, in MB/s. Training and scoring speed: `npm run bench` (speed.bench.ts).
 * Run: `npm run bench -- browser`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { newEnginePage, now, send, startBenchBrowser, waitFor } from './enginePage.ts';

function bigFile(): Buffer {
  const lines = readFileSync(join('public', SAMPLE_DATASET_PATH), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const copies = Math.round(30e6 / lines.reduce((n, l) => n + l.length + 1, 0));
  const out: string[] = [];
  for (let k = 0; k < copies; k++) for (const l of lines) out.push(JSON.stringify({ ...JSON.parse(l), question_id: `c${k}/${JSON.parse(l).question_id}` }));
  return Buffer.from(`${out.join('\n')}\n`);
}

async function main() {
  const bench = await startBenchBrowser();
  const file = bigFile();
  try {
    const newEngine = () => newEnginePage(bench, { '/__bench__/big.jsonl': file });
    const cores = await (await newEngine()).evaluate(() => navigator.hardwareConcurrency);
    console.log(`input: ${(file.length / 1e6).toFixed(1)} MB; browser reports ${cores} cores`);
    for (const workers of [...new Set([1, 2, Math.min(4, Math.max(2, cores))])]) {
      const page = await newEngine();
      await send(page, { type: 'init', tokenizerWorkers: workers });
      const ready = await waitFor(page, 'ready');
      const t0 = await now(page);
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
  } finally {
    await bench.close();
  }
}

await main();
