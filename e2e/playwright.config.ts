import { defineConfig } from '@playwright/test';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, resolveChromium } from './chromium.ts';

const PORT = Number(process.env.E2E_PORT ?? 4319);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './announceBrowser.ts',
  // SwiftShader runs WebGPU on the CPU, about 1000× slower than a GPU: generous per-test time.
  timeout: 8 * 60_000,
  expect: { timeout: 60_000 },
  fullyParallel: false,
  // Two spec files at a time: much of a browser test is waiting (page loads, heartbeats, reloads, the
  // worker's messages), so a second one fills the other core (figures: docs/performance-log.md).
  workers: 2,
  retries: 0,
  reporter: [['list']],
  outputDir: '.artifacts/test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    launchOptions: { executablePath: resolveChromium(), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  webServer: {
    // The built app (e2e/vite.e2e.config.ts), built once per run and served by `vite preview` with the
    // headers a host must send: a page load fetches a few bundles instead of the dev server transforming
    // hundreds of modules on demand, and an edit under src/ during a run reloads nothing.
    // WebGPU needs a secure context: http://127.0.0.1 is one.
    command: `npx vite build --config e2e/vite.e2e.config.ts && npx vite preview --config e2e/vite.e2e.config.ts --port ${PORT} --strictPort`,
    cwd: ROOT,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { E2E_PORT: String(PORT) },
  },
});
