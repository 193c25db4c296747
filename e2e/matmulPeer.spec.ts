import { type Browser, type Page, expect, test } from '@playwright/test';
import { SAMPLE_DATASET_PATH } from '../src/engine/data/sample.ts';
import type { TrainPoint } from '../src/engine/train/loop.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS } from '../src/engine/train/settings.ts';
import type { Command, WorkerEvent } from '../src/worker/protocol.ts';
import { collectConsoleErrors } from './helpers.ts';

type Engine = { events: WorkerEvent[]; send(cmd: Command): void };

async function next<T extends WorkerEvent['type']>(page: Page, type: T, pred = 'true'): Promise<Extract<WorkerEvent, { type: T }>> {
  const handle = await page.waitForFunction(
    ({ type, pred }) => {
      for (const e of (window as unknown as { engine: Engine }).engine.events) {
        if (e.type === 'error') return e;
        if (e.type === type && new Function('e', `return ${pred}`)(e)) return e;
      }
      return null;
    },
    { type, pred },
    { timeout: 120_000 },
  );
  const e = (await handle.jsonValue()) as WorkerEvent;
  if (e.type === 'error') throw new Error(`engine error: ${e.message}`);
  return e as Extract<WorkerEvent, { type: T }>;
}

const STEPS = 12;

/** The first training steps of the tiny preset on the sample (WASM), and how many products the matmul worker shared. */
async function firstSteps(browser: Browser, errors: string[][], matmulWorker?: boolean): Promise<{ points: TrainPoint[]; peerProducts: number }> {
  // A context of its own: nothing restored from the other run's storage.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  errors.push(collectConsoleErrors(page));
  await page.goto('/e2e/pages/engine.html');
  await page.waitForFunction(() => 'engine' in window);
  const send = (cmd: Command) => page.evaluate((c) => (window as unknown as { engine: Engine }).engine.send(c as Command), cmd as unknown as Record<string, unknown>);
  await send({ type: 'init', backend: 'wasm', matmulWorker });
  expect((await next(page, 'ready')).backend.backend).toBe('wasm');
  await send({ type: 'loadData', role: 'train', source: { kind: 'url', url: `/${SAMPLE_DATASET_PATH}`, name: 'sample' } });
  await next(page, 'dataset');
  await send({ type: 'start', settings: { ...DEFAULT_TRAIN_SETTINGS, preset: 'tiny', model: PRESETS.tiny, epochs: 1 } });
  await page.waitForFunction(
    (n) => (window as unknown as { engine: Engine }).engine.events.some((e) => e.type === 'error' || (e.type === 'metrics' && e.points.some((p) => p.step >= n - 1))),
    STEPS,
    { timeout: 120_000 },
  );
  await send({ type: 'stop' });
  await next(page, 'complete');
  await send({ type: 'counters' });
  const { peerProducts } = await next(page, 'counters');
  const points = await page.evaluate(() => (window as unknown as { engine: Engine }).engine.events.flatMap((e) => (e.type === 'metrics' ? e.points : [])));
  await context.close();
  return { points: points.filter((p) => p.step < STEPS), peerProducts };
}

test('the matmul worker shares the training products on WASM and the losses stay exactly the same', async ({ browser }) => {
  const errors: string[][] = [];
  const alone = await firstSteps(browser, errors, false);
  expect(alone.peerProducts).toBe(0);
  const shared = await firstSteps(browser, errors);
  console.log(`${STEPS} training steps: ${shared.peerProducts} products shared with the matmul worker`);
  expect(shared.peerProducts).toBeGreaterThan(STEPS);
  // Same seed, same steps, and row i of a product depends on row i of A only: the same numbers.
  expect(shared.points.map((p) => [p.step, p.loss, p.gradNorm])).toEqual(alone.points.map((p) => [p.step, p.loss, p.gradNorm]));
  expect(shared.points.length).toBe(STEPS);
  expect(errors.flat()).toEqual([]);
});
