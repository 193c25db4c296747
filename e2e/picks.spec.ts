import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { fixtureDir } from '../src/engine/testing/fixtureDir.ts';
import { collectConsoleErrors, dropFile, sampleSlice } from './helpers.ts';

/** The app with the fixture model imported (the selected model). */
async function withModel(page: Page): Promise<void> {
  await page.goto('/?backend=wasm');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });
  await page
    .getByTestId('import-weights')
    .setInputFiles({ name: 'fixture.safetensors', mimeType: 'application/octet-stream', buffer: readFileSync(join(fixtureDir(), 'weights.safetensors')) });
  await expect(page.getByTestId('model-info')).toHaveAttribute('data-source', 'imported', { timeout: 60_000 });
}

/** Pick answers on what the panel offers first, to done; the downloaded picks.jsonl's records. */
async function pickAll(page: Page, questions: number): Promise<Array<Record<string, unknown>>> {
  await page.getByTestId('picks-run').click();
  const progress = page.getByTestId('picks-progress');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(progress).toHaveAttribute('data-done', String(questions));
  await expect(progress).toHaveAttribute('data-total', String(questions));
  const download = page.waitForEvent('download');
  await page.getByTestId('picks-download').click();
  const saved = await download;
  const text = Buffer.concat(await (await saved.createReadStream()).toArray()).toString('utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('Pick answers on an unlabelled file: progress to done, one picks.jsonl line per question', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await withModel(page);
  const bare = sampleSlice(5)
    .trim()
    .split('\n')
    .map((l) => {
      const { label: _l, gold: _g, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .join('\n');
  await dropFile(page, '[data-testid="dataset-summary"]', 'bare.jsonl', bare);
  await expect(page.getByTestId('picks-set')).toHaveValue('picks', { timeout: 60_000 });
  const records = await pickAll(page, 5);
  expect(records.map((r) => r.group)).toEqual([0, 1, 2, 3, 4]);
  for (const r of records) {
    expect(r.correct).toBeNull();
    expect((r.energies as unknown[]).length).toBe(4);
    expect(typeof r.text).toBe('string');
  }
  expect(errors).toEqual([]);
});

test('Pick answers on a labelled file reports accuracy', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await withModel(page);
  await dropFile(page, '[data-testid="dataset-summary"]', 'five.jsonl', sampleSlice(5));
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const records = await pickAll(page, 5);
  expect(records.length).toBe(5);
  const right = records.filter((r) => r.correct === 1).length;
  await expect(page.getByTestId('picks-progress')).toContainText(`accuracy ${((right / 5) * 100).toFixed(1)}%`);
  expect(errors).toEqual([]);
});

test('a reload during Pick answers asks first, and the run is told as interrupted after it (issue 48, point 8)', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await withModel(page);
  // Two chunks of questions (256 a chunk): paused after the first, the run is under way for as long as the test needs.
  await dropFile(page, '[data-testid="dataset-summary"]', 'many.jsonl', sampleSlice(260));
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  await page.getByTestId('picks-run').click();
  await page.getByTestId('picks-pause').click();
  const progress = page.getByTestId('picks-progress');
  await expect(progress).toHaveAttribute('data-state', 'paused', { timeout: 120_000 });
  await expect(progress).toHaveAttribute('data-done', '256');
  const asks = await page.evaluate(() => {
    const e = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(e);
    return e.defaultPrevented;
  });
  expect(asks).toBe(true);

  page.on('dialog', (d) => void d.accept());
  await page.reload();
  await expect(page.getByTestId('picks-progress')).toHaveAttribute('data-state', 'interrupted', { timeout: 60_000 });
  await expect(page.getByTestId('picks-interrupted')).toContainText(
    'Pick answers on many.jsonl was cut off by a reload (or the tab closing) after 256 of 260 questions',
  );
  await expect(page.getByTestId('picks-download')).toBeDisabled();
  expect(errors).toEqual([]);
});
