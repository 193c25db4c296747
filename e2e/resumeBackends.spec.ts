import { expect, test } from '@playwright/test';
import type { CrossResume } from '../src/engine/testing/resumeRuns.ts';
import { collectConsoleErrors } from './helpers.ts';

interface Report {
  error?: string;
  runs: CrossResume[];
  trainSteps: number;
  adapters: Record<string, unknown>;
  seconds: number;
}

/**
 * Largest |Δweight| between a run resumed on the other backend and either backend's uninterrupted run: float
 * rounding (the README quotes it). Masks drawn differently, or the loss-free weights left to AdamW's
 * rounding-driven steps, move weights by 10⁻³ and more here.
 */
const WEBGPU_WASM_WEIGHTS = 1e-5;

test("a run checkpointed on WebGPU and resumed on WASM, or the other way, ends with the uninterrupted run's weights to float rounding (same dropout masks)", async ({
  page,
}, info) => {
  const consoleErrors = collectConsoleErrors(page);
  page.on('console', (m) => m.text().startsWith('resume check:') && console.log(m.text()));
  await page.goto('/e2e/pages/resumeBackends.html');
  const handle = await page.waitForFunction(() => (window as unknown as { __resume?: unknown }).__resume, null, { timeout: 6 * 60_000 });
  const report = (await handle.jsonValue()) as Report;
  expect(report.error, report.error).toBeUndefined();
  const lines = report.runs.map(
    (r) =>
      `${r.first}→${r.then} (from step ${r.checkpointStep}) vs ${r.versus}: max |Δweight| ${r.worst.toExponential(2)}, moved after the checkpoint ${r.movedAfter.toExponential(2)}`,
  );
  const summary = `adapter: ${JSON.stringify(report.adapters.webgpu)}\n${report.seconds.toFixed(1)} s, ${report.trainSteps} steps a run\n${lines.join('\n')}`;
  console.log(summary);
  await info.attach('resume-backends.txt', { body: summary, contentType: 'text/plain' });
  expect(report.runs.map((r) => `${r.first}→${r.then} vs ${r.versus}`)).toEqual([
    'webgpu→wasm vs webgpu',
    'webgpu→wasm vs wasm',
    'wasm→webgpu vs webgpu',
    'wasm→webgpu vs wasm',
  ]);
  for (const r of report.runs) {
    expect(r.checkpointStep).toBe(3);
    expect(r.worst).toBeLessThanOrEqual(WEBGPU_WASM_WEIGHTS);
    // The weights moved after the checkpoint: the comparison above can fail.
    expect(r.movedAfter).toBeGreaterThan(1e-3);
  }
  expect(consoleErrors).toEqual([]);
});
