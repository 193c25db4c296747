#!/usr/bin/env node
// Bundles the GPU bench (src/bench/gpu.bench.ts) with TensorFlow.js and the whole engine inside, so the
// kit runs it from a folder without node_modules: `node bundle.mjs OUT_DIR`. Chromium's route stays
// out (Playwright, Vite): in the kit the bench runs with --node only.
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = resolve(process.argv[2] ?? '.gpukit/bench');
const external = ['@playwright/test', 'playwright', 'playwright-core', 'vite'];
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  publicDir: false,
  ssr: { noExternal: true, external },
  build: {
    ssr: resolve(root, 'src/bench/gpu.bench.ts'),
    outDir,
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: { external, output: { entryFileNames: 'gpu.bench.mjs' } },
  },
});
console.log(`bundled: ${outDir}/gpu.bench.mjs`);
