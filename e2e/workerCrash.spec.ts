import { expect, test, type Page, type Worker } from '@playwright/test';
import { collectConsoleErrors, sampleSlice } from './helpers.ts';

const SLICE = Buffer.from(sampleSlice(32));
// 16 training groups (the default split), two per step: 8 steps per epoch, 64 in all; a checkpoint every 8 steps.
const TOTAL_STEPS = 8 * 8;

async function startTiny(page: Page): Promise<void> {
  await page.getByTestId('preset').selectOption('tiny');
  await page.getByTestId('cfg-max-len').fill('64');
  await page.getByTestId('cfg-epochs').fill('8');
  await page.getByTestId('cfg-lr').fill('0.01');
  await page.getByTestId('cfg-seed').fill('7');
  await page.getByTestId('cfg-groups-per-step').fill('2');
  await page.getByTestId('cfg-checkpoint-every').fill('8');
  await page.getByTestId('train-start').click();
}

/** Names of the engines' life locks held now (see src/worker/lifeLock.ts): the page sees a live worker's lock. */
const lifeLocks = (page: Page) =>
  page.evaluate(async () => ((await navigator.locks.query()).held ?? []).map((l) => l.name ?? '').filter((n) => n.startsWith('eorm-engine-alive-')));

function engineWorker(page: Page): Worker {
  const found = page.workers().find((w) => w.url().includes('engine.worker'));
  if (!found)
    throw new Error(
      `no engine worker among ${page
        .workers()
        .map((w) => w.url())
        .join(', ')}`,
    );
  return found;
}

test('a killed engine worker is noticed by the heartbeat, reported in plain words, restarted without a reload, and its run resumes from its checkpoint', async ({
  page,
}) => {
  test.setTimeout(8 * 60_000);
  const errors = collectConsoleErrors(page);
  await page.goto('/?backend=wasm');
  const backend = page.getByTestId('backend');
  await expect(backend).toHaveAttribute('data-backend', 'wasm', { timeout: 60_000 });
  await page.getByTestId('dataset-input').setInputFiles({ name: 'sample-slice.jsonl', mimeType: 'application/x-ndjson', buffer: SLICE });
  const summary = page.getByTestId('dataset-summary');
  await expect(summary).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const groups = await summary.getAttribute('data-groups');
  await startTiny(page);

  const item = page.getByTestId('run-item');
  await expect(item).toHaveAttribute('data-checkpoint-step', /^[1-9]\d*$/, { timeout: 3 * 60_000 });
  const status = page.getByTestId('train-status');
  await expect(status).toHaveAttribute('data-state', 'training');

  // A busy worker is told from a dead one by its life lock, which the page sees while it lives.
  const firstLock = await lifeLocks(page);
  expect(firstLock).toHaveLength(1);

  // What a worker killed by the browser (out of memory) looks like to the page: it just stops, no goodbye.
  const dead = engineWorker(page);
  const closed = new Promise<void>((resolve) => dead.once('close', () => resolve()));
  await dead.evaluate(() => (self as unknown as { close(): void }).close());
  await closed;
  const killedAt = Date.now();

  const banner = page.getByTestId('engine-crashed');
  await expect(banner).toBeVisible({ timeout: 90_000 });
  const detectedAfter = Date.now() - killedAt;
  console.log(`detected ${(detectedAfter / 1000).toFixed(1)} s after the kill`);
  // The heartbeat noticed it, after several missed beats (no `error` event fired: no error banner) ...
  expect(detectedAfter).toBeGreaterThanOrEqual(20_000);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  // ... and the released life lock told it gone, not merely busy.
  await expect(banner).toHaveAttribute('data-verdict', 'gone');
  expect(await lifeLocks(page)).toEqual([]);
  await expect(banner).toContainText('The engine stopped (it may have run out of memory)');
  await expect(banner).toContainText('an interrupted run can be resumed from its last checkpoint');
  await expect(status).toHaveAttribute('data-state', 'error');

  // Restart on the backend it ran on, without a reload: a new worker restores runs and data from storage.
  await expect(page.getByTestId('engine-restart-backend')).toHaveValue('wasm');
  await page.getByTestId('engine-restart').click();
  await expect(banner).toHaveCount(0);
  await expect(backend).toHaveAttribute('data-backend', 'wasm', { timeout: 60_000 });
  expect(engineWorker(page)).not.toBe(dead);
  await expect.poll(() => lifeLocks(page)).toHaveLength(1);
  expect(await lifeLocks(page)).not.toEqual(firstLock);
  await expect(summary).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-groups', groups!);
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-state', 'interrupted');
  await expect(status).toHaveAttribute('data-state', 'idle');
  const checkpointStep = Number(await item.getAttribute('data-checkpoint-step'));
  expect(checkpointStep).toBeGreaterThan(0);
  expect(checkpointStep).toBeLessThan(TOTAL_STEPS);

  await item.getByTestId('run-resume').click();
  await expect.poll(async () => Number(await status.getAttribute('data-step')), { timeout: 3 * 60_000 }).toBeGreaterThan(checkpointStep);
  await expect(status).toHaveAttribute('data-state', 'done', { timeout: 5 * 60_000 });
  await expect(status).toHaveAttribute('data-step', String(TOTAL_STEPS));
  await expect(item).toHaveAttribute('data-state', 'done');
  expect(errors).toEqual([]);
});
