/**
 * Issue 48, point 1: "load a good file, drop a broken one, reload" ends with the good file loaded, and the broken
 * file's problem named by file, line and field; a file with one line without samples loads without it and
 * comes back the same after a reload (it used to fail again on every reload).
 */
import { type Page, expect, test } from '@playwright/test';
import { collectConsoleErrors, dropFile, sampleSlice } from './helpers.ts';

const GOOD = sampleSlice(3);
const NO_SAMPLES = '{"question":"Q1","responses":[],"gold":"1"}\n{"question":"Q2","samples":[],"gold":"2"}\n';
const ONE_WITHOUT_SAMPLES =
  '{"question":"Good one","responses":["1","2"],"gold":"1","id":"e3"}\n{"question":"Empty samples","responses":[],"gold":"1","id":"e1"}\n';

async function loadGood(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });
  await dropFile(page, '[data-testid="dataset-summary"]', 'good.jsonl', GOOD);
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-files', 'good.jsonl');
  // Stored, so that a reload can bring it back.
  await expect(page.getByTestId('stored-dataset')).toContainText('good.jsonl');
}

test('a good file, then a file without a valid line, then a reload: the good file stays, the broken one is named by line and field', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await loadGood(page);
  await dropFile(page, '[data-testid="dataset-summary"]', 'broken.jsonl', NO_SAMPLES);
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('broken.jsonl: No valid line');
  await expect(banner).toContainText('First problem: line 1, field "responses": no samples: the list is empty');
  const loadError = page.getByTestId('load-error');
  await expect(loadError).toHaveText(/The previously loaded data is kept \(good\.jsonl\)\.$/);
  expect(((await loadError.textContent()) ?? '').match(/previous/g)).toEqual(['previous']);
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-files', 'good.jsonl');

  await page.reload();
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-files', 'good.jsonl');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a file with a line without samples loads without that line, and comes back the same after a reload', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await loadGood(page);
  await dropFile(page, '[data-testid="dataset-summary"]', 'broken.jsonl', ONE_WITHOUT_SAMPLES);
  const summary = page.getByTestId('dataset-summary');
  const shown = async () => {
    await expect(summary).toHaveAttribute('data-files', 'broken.jsonl', { timeout: 60_000 });
    await expect(summary).toHaveAttribute('data-groups', '1');
    await expect(summary).toHaveAttribute('data-rejected', '1');
    await expect(page.getByTestId('first-error')).toHaveAttribute('data-line', '2');
    await expect(page.getByTestId('first-error')).toContainText('responses');
  };
  await shown();
  await expect(page.getByTestId('stored-dataset').filter({ hasText: 'broken.jsonl' })).toHaveCount(1);

  await page.reload();
  await shown();
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  expect(errors).toEqual([]);
});
