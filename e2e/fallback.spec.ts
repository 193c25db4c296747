import { expect, test } from '@playwright/test';
import { resolveChromium } from './chromium.ts';
import { collectConsoleErrors } from './helpers.ts';

// Without --enable-unsafe-webgpu this Chromium offers navigator.gpu but no adapter: WebGPU is absent.
test.use({ launchOptions: { executablePath: resolveChromium(), args: ['--no-sandbox', '--disable-dev-shm-usage'] } });

test('without WebGPU the probe picks WASM, says why, and the engine still answers from its worker', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto('/');
  const badge = page.getByTestId('backend');
  await expect(badge).toHaveAttribute('data-backend', 'wasm', { timeout: 60_000 });
  await expect(badge).toHaveAttribute('data-reason', /× faster than the CPU backend here/);
  await expect(badge).toHaveAttribute('data-reason', /WebGPU: WebGPU is present but no GPU adapter is available/);
  await expect(page.getByTestId('backend-notice')).toHaveCount(0);
  // The worker computes the tiny preset's parameter count: 50257·64 embedding + 2 layers + head.
  await page.getByTestId('preset').selectOption('tiny');
  await expect(page.getByTestId('estimate')).toHaveAttribute('data-params', '3320769');
  expect(errors).toEqual([]);
});

test('?backend=cpu is honoured, shown with a notice, and remembered across a reload', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto('/?backend=cpu');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', 'cpu', { timeout: 60_000 });
  await expect(page.getByTestId('backend')).toHaveAttribute('data-reason', /chosen by you/);
  await expect(page.getByTestId('backend-notice')).toBeVisible();
  await page.goto('/');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', 'cpu', { timeout: 60_000 });
  // The selector switches the running engine and remembers the new choice.
  await page.getByTestId('backend-select').selectOption('auto');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', 'wasm', { timeout: 60_000 });
  await page.reload();
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', 'wasm', { timeout: 60_000 });
  expect(errors).toEqual([]);
});
