import { type Browser, type Page, expect, test } from '@playwright/test';
import { SAMPLE_DATASET_PATH } from '../src/engine/data/sample.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS } from '../src/engine/train/settings.ts';
import type { Command } from '../src/worker/protocols/commands.ts';
import type { WorkerEvent } from '../src/worker/protocols/events.ts';
import type { EvalReport } from '../src/worker/protocols/models.ts';
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

/** A page of its own (nothing restored from another run's storage) whose engine runs WASM with the sample loaded. */
async function sampleOnWasm(browser: Browser, errors: string[][], scoringWorkers: number | undefined) {
  // bypassCSP: next() compiles its predicates in the page (new Function), which the built app's CSP refuses.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, bypassCSP: true });
  const page = await context.newPage();
  errors.push(collectConsoleErrors(page));
  await page.goto('/e2e/pages/engine.html');
  await page.waitForFunction(() => 'engine' in window);
  // Commands sent together reach the engine in one go, handled in that order before any step runs.
  const send = (...cmds: Command[]) =>
    page.evaluate(
      (cs) => cs.forEach((c) => (window as unknown as { engine: Engine }).engine.send(c as Command)),
      cmds as unknown as Array<Record<string, unknown>>,
    );
  await send({ type: 'init', backend: 'wasm', scoringWorkers });
  expect((await next(page, 'ready')).backend.backend).toBe('wasm');
  await send({ type: 'loadData', role: 'train', source: { kind: 'url', url: `/${SAMPLE_DATASET_PATH}`, name: 'sample' } });
  await next(page, 'dataset');
  return { context, page, send };
}

/**
 * The untrained model's validation on the sample (WASM, tiny), and how many of its batches the scoring
 * workers took (with a worker it is scored there, alongside the first steps). With `testWhileValidating`,
 * the run pauses before its first step and the sample, also the test set, is evaluated by the model at
 * step 0 while the validation is scored: two scoring calls at once at the same workers.
 */
async function untrainedValidation(
  browser: Browser,
  errors: string[][],
  scoringWorkers?: number,
  testWhileValidating = false,
): Promise<{ report: EvalReport; testReport: EvalReport | null; peerBatches: number }> {
  const { context, page, send } = await sampleOnWasm(browser, errors, scoringWorkers);
  if (testWhileValidating) {
    await send({ type: 'loadData', role: 'test', source: { kind: 'url', url: `/${SAMPLE_DATASET_PATH}`, name: 'sample' } });
    await next(page, 'dataset', "e.summary.role === 'test'");
  }
  const start: Command = { type: 'start', settings: { ...DEFAULT_TRAIN_SETTINGS, preset: 'tiny', model: PRESETS.tiny, epochs: 1 } };
  await (testWhileValidating ? send(start, { type: 'pause' }) : send(start));
  if (testWhileValidating) {
    await next(page, 'evalProgress', "e.set === 'val'");
    await send({ type: 'evaluate', set: 'test' });
  }
  const { report } = await next(page, 'evaluation', "e.report.set === 'val' && e.report.epoch === 0");
  const testReport = testWhileValidating ? (await next(page, 'evaluation', "e.report.set === 'test'")).report : null;
  await send({ type: 'stop' });
  await next(page, 'complete');
  await send({ type: 'counters' });
  const { peerBatches } = await next(page, 'counters');
  await context.close();
  return { report, testReport, peerBatches };
}

test('scoring workers take validation batches on WASM and give the energies the engine alone gives', async ({ browser }) => {
  const errors: string[][] = [];
  const alone = await untrainedValidation(browser, errors, 0);
  expect(alone.peerBatches).toBe(0);
  const shared = await untrainedValidation(browser, errors);
  console.log(`validation of ${shared.report.summary.nCandidates} candidates: ${shared.peerBatches} batches on the scoring worker`);
  expect(shared.peerBatches).toBeGreaterThan(0);
  // Same weights (seeded init), same batches, same kernels on either thread: the same numbers.
  expect(shared.report.summary).toEqual(alone.report.summary);
  expect(shared.report.histogram).toEqual(alone.report.histogram);
  expect(errors.flat()).toEqual([]);
});

test('a test-set evaluation while the run validates gives each scoring call the energies it gives alone', async ({ browser }) => {
  const errors: string[][] = [];
  const alone = await untrainedValidation(browser, errors, 0, true);
  const shared = await untrainedValidation(browser, errors, undefined, true);
  console.log(`validation and test at once: ${shared.peerBatches} batches on the scoring workers`);
  expect(shared.peerBatches).toBeGreaterThan(0);
  // The test set was scored by the model the validation scores (step 0), in both pages.
  expect([alone.testReport!.step, shared.testReport!.step]).toEqual([0, 0]);
  expect(shared.report.summary).toEqual(alone.report.summary);
  expect(shared.report.histogram).toEqual(alone.report.histogram);
  expect(shared.testReport!.summary).toEqual(alone.testReport!.summary);
  expect(shared.testReport!.histogram).toEqual(alone.testReport!.histogram);
  expect(errors.flat()).toEqual([]);
});

/**
 * The losses of a tiny run's first `steps` steps on the sample (WASM), and how many steps a peer shared:
 * the run goes on until `steps` + 1 steps after the untrained model's validation (while the worker scores
 * it, the engine steps alone).
 */
async function firstSteps(
  browser: Browser,
  errors: string[][],
  scoringWorkers: number | undefined,
  steps: number,
): Promise<{ losses: number[]; peerSteps: number }> {
  const { context, page, send } = await sampleOnWasm(browser, errors, scoringWorkers);
  await send({ type: 'start', settings: { ...DEFAULT_TRAIN_SETTINGS, preset: 'tiny', model: PRESETS.tiny, epochs: 1 } });
  await next(page, 'evaluation', 'e.report.epoch === 0');
  const stepped = await page.evaluate(() =>
    Math.max(0, ...(window as unknown as { engine: Engine }).engine.events.map((e) => (e.type === 'progress' ? e.step : 0))),
  );
  // + 1: the step under way when the evaluation event arrives may have started before the worker was free.
  await next(page, 'progress', `e.step >= ${Math.max(steps, stepped + steps + 1)}`);
  await send({ type: 'stop' });
  await next(page, 'complete');
  const points = await page.evaluate(() =>
    (window as unknown as { engine: Engine }).engine.events.flatMap((e) => (e.type === 'metrics' ? e.points.map((p) => [p.step, p.loss]) : [])),
  );
  await send({ type: 'counters' });
  const { peerSteps } = await next(page, 'counters');
  await context.close();
  const losses: number[] = [];
  for (const [step, loss] of points) if (step < steps) losses[step] = loss;
  return { losses, peerSteps };
}

test('training steps shared with the other core give the losses of the engine alone, to the bit', async ({ browser }) => {
  const errors: string[][] = [];
  const steps = 30;
  const alone = await firstSteps(browser, errors, 0, steps);
  const shared = await firstSteps(browser, errors, 1, steps);
  console.log(`${shared.peerSteps} steps shared with the scoring worker`);
  expect(alone.peerSteps).toBe(0);
  expect(shared.peerSteps).toBeGreaterThanOrEqual(steps);
  expect(alone.losses.filter(Number.isFinite)).toHaveLength(steps);
  // The same masks, products and sums in the same order whichever thread computes a part (sharedStep.ts):
  // the same losses to the bit.
  expect(shared.losses).toEqual(alone.losses);
  expect(errors.flat()).toEqual([]);
});
