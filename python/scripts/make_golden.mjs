#!/usr/bin/env node
// Bundles a golden writer for Node with Vite (as src/bench/run.mjs does) and runs it:
//   node python/scripts/make_golden.mjs                 python/tests/golden/app_rules.json (golden.ts), the app's
//                                                       own results for the rules the Python package mirrors
//   node python/scripts/make_golden.mjs answers [files] python/tests/golden/answers.json (answers_golden.ts),
//                                                       the answer rules' cases; model outputs from the JSONL
//                                                       files named (default: the public sample)
// (from the repository root, after npm ci)
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const sample = join(root, 'public/sample/gsm8k_gpt3_openai_4cand.jsonl');
const [which, ...files] = process.argv.slice(2);
const job =
  which === 'answers'
    ? { entry: 'answers_golden.ts', args: [join(root, 'python/tests/golden/answers.json'), ...(files.length > 0 ? files.map((f) => resolve(f)) : [sample])] }
    : { entry: 'golden.ts', args: [sample, join(root, 'python/tests/golden/app_rules.json')] };
const outDir = join(root, 'node_modules/.cache/eorm-golden');
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  build: { ssr: join(here, job.entry), outDir, emptyOutDir: true, target: 'node20', rollupOptions: { output: { entryFileNames: 'golden.mjs' } } },
});
const run = spawnSync(process.execPath, [join(outDir, 'golden.mjs'), ...job.args], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
