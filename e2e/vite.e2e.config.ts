import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import app from '../vite.config.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = resolve(ROOT, 'e2e/pages');
// Every test page, each at the path it has in the repo (e2e/pages/<name>.html).
const testPages = Object.fromEntries(
  readdirSync(PAGES)
    .filter((f) => f.endsWith('.html'))
    .map((f) => [f.slice(0, -'.html'.length), resolve(PAGES, f)]),
);

/**
 * What the browser tests serve: the app as `vite build` makes it (the same config, so the same CSP and
 * headers), plus the test pages that drive an engine without the UI. One folder per port, so that two runs
 * side by side do not build into one folder.
 */
export default mergeConfig(app, {
  root: ROOT,
  logLevel: 'warn',
  // The per-plugin timing report is for profiling builds, not for a test run's log.
  worker: { rolldownOptions: { checks: { pluginTimings: false } } },
  build: {
    outDir: resolve(ROOT, `e2e/.artifacts/app-${process.env.E2E_PORT ?? 4319}`),
    emptyOutDir: true,
    rolldownOptions: {
      checks: { pluginTimings: false },
      input: { index: resolve(ROOT, 'index.html'), ...testPages },
    },
  },
});
