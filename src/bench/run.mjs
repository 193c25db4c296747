#!/usr/bin/env node
// Runs the benchmarks (figures, not pass/fail). Node 20 cannot run TypeScript directly, so each
// `*.bench.ts` is bundled for Node with Vite first (dependencies stay external), then run.
//   npm run bench              every benchmark
//   npm run bench -- ingest    those whose name contains "ingest"
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outDir = join(root, 'node_modules/.cache/eorm-bench');
const filter = process.argv[2] ?? '';
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
  const run = spawnSync(process.execPath, [join(outDir, `${name}.mjs`), ...process.argv.slice(3)], { cwd: root, stdio: 'inherit' });
  failed ||= run.status !== 0;
}
process.exit(failed ? 1 : 0);
