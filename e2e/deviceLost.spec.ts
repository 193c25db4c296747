import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_TRAIN_SETTINGS, PRESETS, type TrainSettings } from '../src/engine/train/settings.ts';
import type { Command } from '../src/worker/protocols/commands.ts';
import type { WorkerEvent } from '../src/worker/protocols/events.ts';
import { sampleSlice } from './helpers.ts';

type Events = Array<WorkerEvent & { at: number }>;

// 16 training groups (the default split), two per step: 8 steps; a checkpoint every 2 steps.
const SETTINGS: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  model: { ...PRESETS.tiny, maxLen: 64 },
  epochs: 1,
  lr: 0.01,
  seed: 7,
  groupsPerStep: 2,
  checkpointEverySteps: 2,
};

const DEVICE_LOST = /WebGPU device lost/;

// Commands cross as plain JSON here (no File among them).
const send = (page: Page, cmd: Command) =>
  page.evaluate((c) => (window as unknown as { engine: { send(c: unknown): void } }).engine.send(c), cmd as unknown as object);

/** Waits for an event of `type` after index `from` that passes `test`; returns it with its index. */
async function waitFor<T extends WorkerEvent['type']>(
  page: Page,
  type: T,
  ok: (e: Extract<WorkerEvent, { type: T }>) => boolean = () => true,
  from = 0,
  timeout = 180_000,
) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const events = (await page.evaluate(() => (window as unknown as { engine: { events: Events } }).engine.events)) as Events;
    for (let i = from; i < events.length; i++) {
      const e = events[i];
      const typed = e as unknown as Extract<WorkerEvent, { type: T }>;
      if (e.type === type && ok(typed)) return { event: typed, index: i };
    }
    // The device-lost error itself is expected: waits that start before it must not fail on it.
    const failure = events.slice(from).find((e) => e.type === 'error' && !DEVICE_LOST.test(e.message));
    if (failure && type !== 'error') throw new Error(`engine error while waiting for ${type}: ${JSON.stringify(failure)}`);
    if (Date.now() > deadline) throw new Error(`no ${type} event within ${timeout} ms`);
    await page.waitForTimeout(250);
  }
}

test('a lost WebGPU device is reported in plain words and the run resumes from its last checkpoint on WASM', async ({ page }) => {
  test.setTimeout(6 * 60_000);
  await page.goto('/e2e/pages/engine.html');
  await page.waitForFunction(() => 'engine' in window);
  await send(page, { type: 'init', backend: 'webgpu' });
  const ready = await waitFor(page, 'ready');
  expect(ready.event.backend.backend).toBe('webgpu');

  await page.evaluate((text) => {
    const file = new File([text], 'sample-slice.jsonl');
    (window as unknown as { engine: { send(c: unknown): void } }).engine.send({ type: 'loadData', role: 'train', source: { kind: 'file', file } });
  }, sampleSlice(32));
  await waitFor(page, 'dataset');
  await send(page, { type: 'start', settings: SETTINGS });
  const saved = await waitFor(page, 'runs', (e) => e.runs.some((r) => r.checkpointStep >= 2));
  const runId = saved.event.runs[0].id;

  await send(page, { type: 'destroyDevice' });
  const lost = await waitFor(page, 'error', (e) => DEVICE_LOST.test(e.message), saved.index, 60_000);
  // Either the run was let go when the loss was reported, or its next op had already failed it.
  expect(lost.event.message).toMatch(
    /The GPU stopped working .*(Its last checkpoint \(step \d+\) is saved|an interrupted run can be resumed from its last checkpoint)/,
  );
  await waitFor(page, 'runs', (e) => e.runs.some((r) => r.id === runId && r.state === 'interrupted'), saved.index);
  await waitFor(page, 'trainState', (e) => e.state === 'error', saved.index);

  // Another backend, same worker: the run goes on from its checkpoint and finishes.
  await send(page, { type: 'setBackend', backend: 'wasm' });
  const wasm = await waitFor(page, 'ready', (e) => e.backend.backend === 'wasm', lost.index);
  await send(page, { type: 'resumeRun', runId });
  const done = await waitFor(page, 'complete', () => true, wasm.index);
  expect(done.event.reason).toBe('finished');
  expect(done.event.steps).toBe(8);
  await waitFor(page, 'runs', (e) => e.runs.some((r) => r.id === runId && r.state === 'done'), wasm.index);
});
