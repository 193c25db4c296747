import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { answerSteps } from '../src/engine/data/answers/answerSteps.ts';
import { fixtureDir } from '../src/engine/testing/fixtureDir.ts';
import { collectConsoleErrors } from './helpers.ts';

const QUESTION = 'Janet’s ducks lay 16 eggs per day. She eats three and bakes with four. She sells the rest at $2 each. How much does she make?';
const TEXTS = [
  'She uses 3 + 4 = 7 eggs. So 16 - 7 = 9 are left.\nShe sells them for 9 * 2 = $18.\nA: 18',
  'She sells 16 - 3 = 13 eggs at $2, so 26 dollars.\nA: 26',
  'Eggs left: 16 - 4 = 12, money: 12 * 2 = 24.\nA: 24',
];

/** The automation contract of "Why this energy?": steps with data-delta, data-start, data-end; tokens with data-score. */
test('Why this energy: every step of the answer with its deletion effect and its character range, then its tokens', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto('/?backend=wasm');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });
  await page
    .getByTestId('import-weights')
    .setInputFiles({ name: 'fixture.safetensors', mimeType: 'application/octet-stream', buffer: readFileSync(join(fixtureDir(), 'weights.safetensors')) });
  await expect(page.getByTestId('model-info')).toHaveAttribute('data-source', 'imported', { timeout: 60_000 });

  await page.getByTestId('rerank-question').fill(QUESTION);
  await page.getByTestId('rerank-candidates').fill(TEXTS.join('\n---\n'));
  await page.getByTestId('rerank-run').click();
  const rows = page.getByTestId('ranked-candidate');
  await expect(rows).toHaveCount(3, { timeout: 60_000 });
  const index = Number(await rows.first().getAttribute('data-index'));
  const text = TEXTS[index];
  await page.getByTestId('rerank-result').getByTestId('saliency-button').first().click();

  const steps = page.getByTestId('saliency-step');
  await expect(steps.first()).toBeVisible({ timeout: 120_000 });
  const read = await steps.evaluateAll((els) =>
    els.map((e) => ({
      delta: e.getAttribute('data-delta'),
      start: e.getAttribute('data-start'),
      end: e.getAttribute('data-end'),
      distrusted: e.getAttribute('data-distrusted'),
    })),
  );
  // The steps are the answer's lines and sentences, in order, covering it whole.
  expect(read.map((s) => [Number(s.start), Number(s.end)])).toEqual(answerSteps(text).map((s) => [s.start, s.end]));
  expect(read.length).toBeGreaterThanOrEqual(2);
  expect(Number(read.at(-1)!.end)).toBe(text.length);
  const deltas = read.map((s) => Number(s.delta));
  for (const [k, d] of deltas.entries()) expect(Number.isFinite(d) && read[k].delta !== '', `data-delta ${read[k].delta}`).toBe(true);
  // At most one is marked: the step whose deletion lowers the energy most, when one lowers it.
  const marked = read.flatMap((s, k) => (s.distrusted === 'true' ? [k] : []));
  expect(marked).toEqual(Math.min(...deltas) < 0 ? [deltas.indexOf(Math.min(...deltas))] : []);

  const tokens = page.getByTestId('saliency-token');
  const pieces = await tokens.evaluateAll((els) =>
    els.map((e) => ({
      score: e.getAttribute('data-score'),
      start: Number(e.getAttribute('data-start')),
      end: Number(e.getAttribute('data-end')),
      text: e.textContent,
    })),
  );
  // A short answer: its tokens, whole, each shown as the characters it stands for.
  expect(pieces.map((p) => p.text).join('')).toBe(text);
  for (const p of pieces) {
    expect(Number.isFinite(Number(p.score)) && p.score !== '', `data-score ${p.score}`).toBe(true);
    expect(text.slice(p.start, p.end)).toBe(p.text);
  }
  expect(errors).toEqual([]);
});
