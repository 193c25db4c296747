#!/usr/bin/env node
// Runs the benchmarks (figures, not pass/fail). Node 20 cannot run TypeScript directly, so each
// `*.bench.ts` is bundled for Node with Vite first (dependencies stay external), then run.
//   npm run bench              the speed benchmark (app per backend vs PyTorch; bench/results/latest.json)
//   npm run bench -- ingest    those whose name contains "ingest" (`all`: every benchmark)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outDir = join(root, 'node_modules/.cache/eorm-bench');
const named = process.argv[2] !== undefined && !process.argv[2].startsWith('--');
const arg = named ? process.argv[2] : 'speed';
const rest = process.argv.slice(named ? 3 : 2);
const filter = arg === 'all' ? '' : arg;
const benches = readdirSync(here).filter((f) => f.endsWith('.bench.ts') && f.includes(filter));
if (benches.length === 0) {
  console.error(`no benchmark matches "${filter}"; have: ${readdirSync(here).filter((f) => f.endsWith('.bench.ts')).join(', ')}`);
  process.exit(1);
}

let failed = false;
for (const file of benches) {
  const name = file.replace(/\.ts$/, '');
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    build: { ssr: join(here, file), outDir, emptyOutDir: false, target: 'node20', rollupOptions: { output: { entryFileNames: `${name}.mjs` } } },
  });
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(process.execPath, [join(outDir, `${name}.mjs`), ...rest], { cwd: root, stdio: 'inherit' });
  failed ||= run.status !== 0;
}
process.exit(failed ? 1 : 0);
