#!/usr/bin/env node
// Bundles python/scripts/long_runs_golden.ts for Node with Vite (as make_golden.mjs does) and runs it:
// writes python/tests/golden/long_runs.json.
//   node python/scripts/make_long_runs_golden.mjs        (from the repository root, after npm ci)
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outDir = join(root, 'node_modules/.cache/eorm-long-runs-golden');
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  build: { ssr: join(here, 'long_runs_golden.ts'), outDir, emptyOutDir: true, target: 'node20', rollupOptions: { output: { entryFileNames: 'long_runs_golden.mjs' } } },
});
const run = spawnSync(process.execPath, [join(outDir, 'long_runs_golden.mjs'), join(root, 'python/tests/golden/long_runs.json')], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
