import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParityReport, parityFailures, paritySummary } from '../src/engine/testing/parityVerdict.ts';
import { fixtureDir } from '../src/engine/testing/fixtureDir.ts';
import { FLOAT32_TOLERANCE, WEBGPU_TOLERANCE } from '../src/engine/testing/tolerances.ts';
import { collectConsoleErrors } from './helpers.ts';

const BACKENDS = [
  { name: 'wasm', label: 'WASM', tolerance: FLOAT32_TOLERANCE },
  { name: 'webgpu', label: 'WebGPU', tolerance: WEBGPU_TOLERANCE },
] as const;

for (const { name, label, tolerance } of BACKENDS)
  test(`TransEBM energies, loss, gradients and AdamW steps on ${label} in a worker equal the PyTorch fixtures`, async ({ page }, info) => {
    // Software WebGPU beside another spec file: well beyond the default time of a test.
    test.setTimeout(12 * 60_000);
    const dir = fixtureDir();
    await page.route('**/__fixtures__/*', (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop()!;
      return route.fulfill({ body: readFileSync(join(dir, name)) });
    });
    const consoleErrors = collectConsoleErrors(page);
    await page.goto(`/e2e/pages/parity.html?backend=${name}`);
    const handle = await page.waitForFunction(() => (window as unknown as { __parity?: unknown }).__parity, null, { timeout: 11 * 60_000 });
    const report = (await handle.jsonValue()) as ParityReport & { error?: string; backend: string; info: { adapter: unknown }; seconds: number };
    expect(report.error, report.error).toBeUndefined();
    expect(report.backend).toBe(name);
    const summary = `adapter: ${JSON.stringify(report.info.adapter)}\nparity on ${label} (${report.seconds.toFixed(1)} s, largest error per kind):\n${paritySummary(report).join('\n')}`;
    console.log(summary);
    await info.attach(`${name}-parity.txt`, { body: summary, contentType: 'text/plain' });
    // Fixture checks within the backend's tolerances, the fused AdamW kernel, the fused WebGPU kernels
    // (on WebGPU only) and WebGPU's device-drawn dropout mask: src/engine/testing/parityVerdict.ts.
    expect(parityFailures(report, name === 'webgpu', tolerance)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
