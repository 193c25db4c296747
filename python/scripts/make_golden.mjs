#!/usr/bin/env node
// Bundles python/scripts/golden.ts for Node with Vite (as src/bench/run.mjs does) and runs it: writes
// python/tests/golden/app_rules.json, the app's own results for the rules the Python package mirrors.
//   node python/scripts/make_golden.mjs        (from the repository root, after npm ci)
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outDir = join(root, 'node_modules/.cache/eorm-golden');
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  build: { ssr: join(here, 'golden.ts'), outDir, emptyOutDir: true, target: 'node20', rollupOptions: { output: { entryFileNames: 'golden.mjs' } } },
});
const run = spawnSync(process.execPath, [join(outDir, 'golden.mjs'), join(root, 'public/sample/gsm8k_gpt3_openai_4cand.jsonl'), join(root, 'python/tests/golden/app_rules.json')], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
