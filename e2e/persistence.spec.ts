import { expect, test, type Browser, type Page } from '@playwright/test';
import { collectConsoleErrors, sampleSlice } from './helpers.ts';

const SLICE = Buffer.from(sampleSlice(32));
const QUESTION = 'Tom has 3 apples and buys 4 more. How many apples does he have?';
const CANDIDATES = ['3 + 4 = 7.\nA: 7', '3 * 4 = 12.\nA: 12', 'He has 4 - 3 = 1.\nA: 1'].join('\n---\n');
// 16 training groups (the default split holds out 20% of all questions, trains on the mixed ones among the
// rest), two per step: 8 steps per epoch, 64 in all; a checkpoint every 8 steps
// (each epoch end): writing one every few steps only slowed the test.
const EPOCHS = 8;
const TOTAL_STEPS = 8 * EPOCHS;

async function loadSlice(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });
  await page.getByTestId('dataset-input').setInputFiles({ name: 'sample-slice.jsonl', mimeType: 'application/x-ndjson', buffer: SLICE });
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

async function startTiny(page: Page): Promise<void> {
  await page.getByTestId('preset').selectOption('tiny');
  await page.getByTestId('cfg-max-len').fill('64');
  await page.getByTestId('cfg-epochs').fill(String(EPOCHS));
  await page.getByTestId('cfg-lr').fill('0.01');
  await page.getByTestId('cfg-seed').fill('7');
  await page.getByTestId('cfg-groups-per-step').fill('2');
  await page.getByTestId('cfg-checkpoint-every').fill('8');
  await page.getByTestId('train-start').click();
}

/** Energies of three pasted answers by pasted position: a fingerprint of the final weights. */
async function energies(page: Page): Promise<number[]> {
  await page.getByTestId('rerank-question').fill(QUESTION);
  await page.getByTestId('rerank-candidates').fill(CANDIDATES);
  await page.getByTestId('rerank-run').click();
  const rows = page.getByTestId('ranked-candidate');
  await expect(rows).toHaveCount(3, { timeout: 60_000 });
  const out: number[] = [];
  for (const row of await rows.all()) out[Number(await row.getAttribute('data-index'))] = Number(await row.getAttribute('data-energy'));
  return out;
}

async function uninterrupted(browser: Browser): Promise<number[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loadSlice(page);
  await startTiny(page);
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-state', 'done', { timeout: 5 * 60_000 });
  const e = await energies(page);
  await context.close();
  return e;
}

test('a run cut off by a reload is listed as interrupted with its dataset restored, resumes from its checkpoint and ends with the weights of the uninterrupted run', async ({
  page,
  browser,
}) => {
  test.setTimeout(8 * 60_000);
  const errors = collectConsoleErrors(page);
  await loadSlice(page);
  const summary = page.getByTestId('dataset-summary');
  const figures = async () => ({
    groups: await summary.getAttribute('data-groups'),
    trainable: await summary.getAttribute('data-trainable-groups'),
  });
  const before = await figures();
  await startTiny(page);

  // Saved as it trains: reload once a mid-run checkpoint is stored.
  const item = page.getByTestId('run-item');
  await expect(item).toHaveAttribute('data-checkpoint-step', /^[1-9]\d*$/, { timeout: 3 * 60_000 });
  await expect(page.getByTestId('train-status')).not.toHaveAttribute('data-state', 'done');
  await page.reload();

  await expect(item).toHaveCount(1, { timeout: 60_000 });
  await expect(item).toHaveAttribute('data-state', 'interrupted');
  const checkpointStep = Number(await item.getAttribute('data-checkpoint-step'));
  expect(checkpointStep).toBeGreaterThan(0);
  expect(checkpointStep).toBeLessThan(TOTAL_STEPS);
  await expect(summary).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  expect(await figures()).toEqual(before);

  await item.getByTestId('run-resume').click();
  // The form shows the settings the run trains with (after the reload it had the defaults).
  await expect(page.getByTestId('cfg-checkpoint-every')).toHaveValue('8');
  await expect(page.getByTestId('cfg-seed')).toHaveValue('7');
  const status = page.getByTestId('train-status');
  await expect(status).toHaveAttribute('data-state', 'done', { timeout: 5 * 60_000 });
  await expect(status).toHaveAttribute('data-step', String(TOTAL_STEPS));
  // The curve holds every step: the stored history up to the checkpoint, then the resumed steps.
  await expect(page.getByTestId('chart-loss')).toHaveAttribute('data-points', String(TOTAL_STEPS));
  await expect(item).toHaveAttribute('data-state', 'done');
  await expect(item).toHaveAttribute('data-checkpoint-step', String(TOTAL_STEPS));
  const resumed = await energies(page);

  const whole = await uninterrupted(browser);
  console.log(`resumed from step ${checkpointStep}: energies ${resumed.join(', ')}; uninterrupted ${whole.join(', ')}`);
  // To the bit: a step has the same numbers whichever core computes its parts, so neither run's weights
  // depend on the step at which the helper worker came free (sharedStep.ts).
  expect(resumed).toEqual(whole);

  // Deleted one by one: the checkpoint (the run stays listed, no longer resumable), the run, the dataset.
  await item.getByTestId('run-delete-checkpoint').click();
  await expect(item).toHaveAttribute('data-checkpoint-step', '0');
  await expect(item.getByTestId('run-resume')).toBeDisabled();
  await item.getByTestId('run-delete').click();
  await expect(item).toHaveCount(0);
  const stored = page.getByTestId('stored-dataset');
  await expect(stored).toHaveCount(1);
  await stored.getByTestId('stored-dataset-delete').click();
  await expect(stored).toHaveCount(0);
  // Gone from storage too: a reload restores neither.
  await page.reload();
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });
  await expect(page.getByTestId('runs')).toHaveAttribute('data-restored', 'true');
  await expect(item).toHaveCount(0);
  await expect(stored).toHaveCount(0);
  await expect(summary).toHaveAttribute('data-status', 'empty');
  expect(errors).toEqual([]);
});

test('a second tab lists the run the first one holds as it stands there (not interrupted), and cannot resume it', async ({ page, context }) => {
  const errors = collectConsoleErrors(page);
  await loadSlice(page);
  await startTiny(page);
  const item = page.getByTestId('run-item');
  await expect(item).toHaveAttribute('data-checkpoint-step', /^[1-9]\d*$/, { timeout: 3 * 60_000 });
  await page.getByTestId('train-pause').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-state', 'paused');

  const second = await context.newPage();
  await second.goto('/');
  const there = second.getByTestId('run-item');
  await expect(there).toHaveCount(1, { timeout: 60_000 });
  // Not 'interrupted': the first tab still holds it.
  await expect(there).toHaveAttribute('data-state', 'paused');
  await there.getByTestId('run-resume').click();
  await expect(second.getByTestId('error-banner').filter({ hasText: 'training in another tab' })).toHaveCount(1);
  await expect(item).toHaveAttribute('data-state', 'paused');
  await page.getByTestId('train-stop').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-state', 'done');
  expect(errors).toEqual([]);
});

test('two saved runs compare side by side: their settings (differences marked), figures and loss curves', async ({ page }) => {
  await loadSlice(page);
  const status = page.getByTestId('train-status');
  for (const seed of ['7', '8']) {
    await page.getByTestId('preset').selectOption('tiny');
    await page.getByTestId('cfg-max-len').fill('64');
    await page.getByTestId('cfg-epochs').fill('1');
    await page.getByTestId('cfg-groups-per-step').fill('2');
    await page.getByTestId('cfg-seed').fill(seed);
    await page.getByTestId('train-start').click();
    await expect(status).toHaveAttribute('data-state', 'done', { timeout: 3 * 60_000 });
  }
  const items = page.getByTestId('run-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute('data-state', 'done');
  await expect(items.nth(1)).toHaveAttribute('data-state', 'done');
  // Each run's steps (its last checkpoint, at the end): one epoch, two groups per step; the seed picks the
  // held-out questions, so the two counts may differ.
  // The list shows a run's last checkpoint once it is stored, which may follow 'done' by a moment.
  const checkpointSteps = async () => [
    Number(await items.nth(0).getAttribute('data-checkpoint-step')),
    Number(await items.nth(1).getAttribute('data-checkpoint-step')),
  ];
  await expect.poll(async () => (await checkpointSteps()).every((n) => n >= 5)).toBe(true);
  const steps = await checkpointSteps();
  await items.nth(0).getByTestId('run-compare-tick').check();
  await items.nth(1).getByTestId('run-compare-tick').check();
  const compare = page.getByTestId('run-compare');
  await expect(compare).toHaveCount(1);
  const differing = await compare.locator('tr[data-differs="true"] th').allInnerTexts();
  expect(differing).toContain('Seed');
  expect(differing).not.toContain('Learning rate');
  // Each curve holds every step of its run.
  const points = async () =>
    [await page.getByTestId('compare-loss-a').getAttribute('data-points'), await page.getByTestId('compare-loss-b').getAttribute('data-points')]
      .map(Number)
      .sort();
  await expect.poll(points).toEqual([...steps].sort());
});
