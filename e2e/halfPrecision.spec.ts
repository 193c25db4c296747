import { expect, test } from '@playwright/test';
import { type HalfPrecisionReport, halfReportFailures } from '../src/engine/testing/halfReport.ts';
import { collectConsoleErrors } from './helpers.ts';

test('half precision on SwiftShader: the profile keeps float32, the f16 kernel (run in f32) and the loss-scale kernel compute what their references do', async ({
  page,
}, info) => {
  const consoleErrors = collectConsoleErrors(page);
  await page.goto('/e2e/pages/halfPrecision.html');
  const handle = await page.waitForFunction(() => (window as unknown as { __half?: unknown }).__half, null, { timeout: 5 * 60_000 });
  const r = (await handle.jsonValue()) as Record<string, unknown> & { error?: string };
  expect(r.error, r.error).toBeUndefined();
  await info.attach('half-precision.json', { body: JSON.stringify(r, null, 1), contentType: 'application/json' });
  const report = r as unknown as HalfPrecisionReport & { backend: string; software: boolean; adapterFeatures: string[] };
  expect(report.backend).toBe('webgpu');
  expect(report.software).toBe(true);
  // SwiftShader offers no shader-f16: the device lacks it, the profile chooses float32 and says why.
  expect(report.adapterFeatures).not.toContain('shader-f16');
  expect(report.deviceFeatures).not.toContain('shader-f16');
  expect(report.profileHalf).toBe(false);
  expect(report.reason).toContain('shader-f16');
  expect(report.f16Kernel).toBeNull();
  // Every shader compiled and ran, the kernel in f32 matches tf.matMul to float32's rounding, the loss-scale
  // kernel the AMP rule, and the half-precision steps (products by the kernel in f32, the loss scaled, the
  // scale updated in place) the float32 steps, replayed and not (halfReport.ts's verdict).
  expect(halfReportFailures(report)).toEqual([]);
  expect(report.f32Kernel.length).toBe(9);
  expect(report.lossScale.steps).toBe(12);
  expect(report.step?.element).toBe('f32');
  expect(report.step?.replayed).toBeGreaterThanOrEqual(5);
  expect(consoleErrors).toEqual([]);
});
