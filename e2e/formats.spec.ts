import { readFileSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { collectConsoleErrors } from './helpers.ts';

/** The app with its engine up (the files are read by the engine's worker). */
async function open(page: Page): Promise<void> {
  await page.goto('/?backend=wasm');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 120_000 });
}

const golden = (name: string) => ({
  name: name.slice(name.lastIndexOf('/') + 1),
  mimeType: 'application/json',
  buffer: readFileSync(new URL(`../python/tests/golden/formats/${name}`, import.meta.url)),
});

test('several per-model results files dropped together: one multi-file dataset, one dataset-source per model', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await open(page);
  const models = ['gemma-2-2b-it', 'gpt-3.5-turbo-0125', 'Qwen2-7B-Instruct'];
  await page.getByTestId('dataset-input').setInputFiles(models.map((m) => golden(`real/zeroeval_gsm_${m}.json`)));
  const summary = page.getByTestId('dataset-summary');
  await expect(summary).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  await expect(summary).toHaveAttribute('data-format', 'multi-file');
  await expect(summary).toHaveAttribute('data-files', models.map((m) => `zeroeval_gsm_${m}.json`).join('\n'));
  await expect(summary).toHaveAttribute('data-labels-from', 'gold');
  await expect(summary).toHaveAttribute('data-label-disagreements', '0');
  await expect(summary).toHaveAttribute('data-groups', '3');
  await expect(summary.getByTestId('dataset-format')).toContainText('3 files joined: 3 questions × 3 candidates');
  const sources = summary.getByTestId('dataset-source');
  await expect(sources).toHaveCount(3);
  // Every model gets the first two questions right and the third wrong (expected/zeroeval-three-models.json).
  await expect(sources.nth(0)).toHaveAttribute('data-source', 'google/gemma-2-2b-it');
  await expect(sources.nth(0)).toHaveAttribute('data-candidates', '3');
  await expect(sources.nth(0)).toHaveAttribute('data-correct-share', String(2 / 3));
  expect(errors).toEqual([]);
});

test('a chat batch without labels loads as a picks set: format, labels none, training disabled with the reason', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await open(page);
  await page.getByTestId('dataset-input').setInputFiles([golden('batch_output.jsonl'), golden('batch_requests.jsonl')]);
  const summary = page.getByTestId('dataset-summary');
  await expect(summary).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  await expect(summary).toHaveAttribute('data-format', 'chat-batch');
  await expect(summary).toHaveAttribute('data-labels-from', 'none');
  await expect(summary).toHaveAttribute('data-trainable-groups', '0');
  await expect(summary).toHaveAttribute('data-rejected', '2');
  await expect(summary.getByTestId('picks-only-reason')).toBeVisible();
  await expect(summary.getByTestId('dataset-source')).toHaveAttribute('data-correct-share', '');
  await expect(page.getByTestId('train-start')).toBeDisabled();
  expect(errors).toEqual([]);
});
