import { expect, test } from '@playwright/test';
import { collectConsoleErrors, dropFile, sampleSlice } from './helpers.ts';

test('scores a file brings get the selection report with no model: Evaluate these scores', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto('/?backend=wasm');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });
  // 40 questions, each line with another reward model's score (higher is better, and it knows the labels) and a number that knows nothing.
  const scored = sampleSlice(40)
    .trim()
    .split('\n')
    .map((l, i) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify({ ...o, score: (o.label === 1 ? 1 : 0) + ((i * 7919) % 13) / 100, noise: (i * 104729) % 17 });
    })
    .join('\n');
  await dropFile(page, '[data-testid="dataset-summary"]', 'scored.jsonl', scored);
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('scores-field')).toHaveValue('score');
  await page.getByTestId('scores-higher-is-better').check();
  await page.getByTestId('evaluate-scores').click();
  const summary = page.getByTestId('scores-summary');
  await expect(summary).toBeVisible({ timeout: 120_000 });
  // A score that knows the labels: Best-of-N picks a right answer wherever there is one (the oracle), never below majority vote.
  await expect(summary).toHaveAttribute('data-best-of-n', (await summary.getAttribute('data-oracle-accuracy')) ?? '');
  const bestOfN = summary.locator('[data-testid="versus-majority"][data-rule="bestOfN"]');
  expect(Number(await bestOfN.getAttribute('data-difference'))).toBeGreaterThan(0);
  await expect(summary.getByTestId('recommendation')).toContainText(/^Use /);

  // The same score as a signal the learned selector reads beside a score that knows nothing (issue 42, point 3).
  await page.getByTestId('cfg-selector-field').and(page.locator('[data-field="score"]')).check();
  await page.getByTestId('scores-field').fill('noise');
  await page.getByTestId('scores-higher-is-better').uncheck();
  await page.getByTestId('evaluate-scores').click();
  await expect(summary).toHaveAttribute('data-selector-fields', 'score', { timeout: 120_000 });
  const selector = summary.locator('[data-testid="versus-majority"][data-rule="selector"]');
  expect(Number(await selector.getAttribute('data-difference'))).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
