import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Check, CheckKind } from '../src/engine/testing/parity.ts';
import { fixtureDir } from '../src/engine/testing/fixtureDir.ts';
import { FLOAT32_TOLERANCE, WEBGPU_TOLERANCE } from '../src/engine/testing/tolerances.ts';
import { collectConsoleErrors } from './helpers.ts';

const BACKENDS = [
  { name: 'wasm', label: 'WASM', tolerance: FLOAT32_TOLERANCE },
  { name: 'webgpu', label: 'WebGPU', tolerance: WEBGPU_TOLERANCE },
] as const;

for (const { name, label, tolerance } of BACKENDS) test(`TransEBM energies, loss, gradients and AdamW steps on ${label} in a worker equal the PyTorch fixtures`, async ({ page }, info) => {
  const dir = fixtureDir();
  await page.route('**/__fixtures__/*', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    return route.fulfill({ body: readFileSync(join(dir, name)) });
  });
  const consoleErrors = collectConsoleErrors(page);
  await page.goto(`/e2e/pages/parity.html?backend=${name}`);
  const handle = await page.waitForFunction(() => (window as unknown as { __parity?: unknown }).__parity, null, { timeout: 6 * 60_000 });
  const report = (await handle.jsonValue()) as { error?: string; backend: string; info: { adapter: unknown }; checks: Check[]; kernels: { adamw: { p: number; m: number; v: number; moved: number; skipMoved: number }; fused: Record<string, Record<string, number> | null>; dropoutMask: { rate: number; dropped: number; pairsDropped: number; seedsAgree: number } | null }; seconds: number };
  expect(report.error, report.error).toBeUndefined();
  expect(report.backend).toBe(name);
  const worst = new Map<CheckKind, Check>();
  for (const c of report.checks) if (!worst.has(c.kind) || c.error > worst.get(c.kind)!.error) worst.set(c.kind, c);
  const lines = [...worst.values()].map((c) => `${c.kind.padEnd(14)} ${c.error.toExponential(2)}  (${c.name})`);
  const summary = `adapter: ${JSON.stringify(report.info.adapter)}\nparity on ${label} (${report.seconds.toFixed(1)} s, largest error per kind):\n${lines.join('\n')}`;
  console.log(summary);
  await info.attach(`${name}-parity.txt`, { body: summary, contentType: 'text/plain' });
  for (const [kind, tol] of Object.entries(tolerance) as Array<[CheckKind, number]>) {
    const mine = report.checks.filter((c) => c.kind === kind);
    expect(mine.length, kind).toBeGreaterThan(0);
    expect(mine.filter((c) => !(c.error <= tol)).map((c) => `${c.name}: ${c.error}`)).toEqual([]);
  }
  // The fused AdamW kernel of this backend against the composed ops (relative to each tensor's largest entry).
  const { adamw } = report.kernels;
  console.log(`fused AdamW vs composition on ${label}: p ${adamw.p.toExponential(2)}, m ${adamw.m.toExponential(2)}, v ${adamw.v.toExponential(2)}`);
  for (const key of ['p', 'm', 'v'] as const) expect(adamw[key], `AdamW ${key}`).toBeLessThan(1e-5);
  expect(adamw.moved).toBeGreaterThan(1e-3);
  // A step whose apply flag is false (its gradient NaN) leaves p, m and v exactly as they were.
  expect(adamw.skipMoved, 'AdamW skipped step').toBe(0);
  // The fused WebGPU kernels against their compositions (value and every input's gradient, relative to the
  // composition's largest entry); they exist on WebGPU only, the composition runs elsewhere.
  for (const [kernel, errors] of Object.entries(report.kernels.fused)) {
    console.log(`fused ${kernel} vs composition on ${label}: ${errors ? Object.entries(errors).map(([k, v]) => `${k} ${v.toExponential(2)}`).join(', ') : 'not registered'}`);
    if (name !== 'webgpu') {
      expect(errors, kernel).toBeNull();
      continue;
    }
    expect(errors, kernel).not.toBeNull();
    expect(Object.entries(errors!).filter(([, v]) => !(v < 1e-5)), kernel).toEqual([]);
  }
  expect(Object.keys(report.kernels.fused).length).toBeGreaterThan(0);
  // WebGPU draws dropout masks on the device (a keyed hash per element): they must look like independent
  // draws at the rate asked for. Each bound is about 10 standard deviations of 2^20 draws.
  const mask = report.kernels.dropoutMask;
  if (name !== 'webgpu') expect(mask).toBeNull();
  else {
    console.log(`WebGPU dropout mask at rate ${mask!.rate}: dropped ${mask!.dropped.toFixed(4)}, neighbours both dropped ${mask!.pairsDropped.toFixed(4)}, two seeds agree ${mask!.seedsAgree.toFixed(4)}`);
    expect(Math.abs(mask!.dropped - mask!.rate)).toBeLessThan(0.003);
    expect(Math.abs(mask!.pairsDropped - mask!.rate ** 2)).toBeLessThan(0.001);
    expect(Math.abs(mask!.seedsAgree - (1 - 2 * mask!.rate * (1 - mask!.rate)))).toBeLessThan(0.004);
  }
  expect(consoleErrors).toEqual([]);
});

