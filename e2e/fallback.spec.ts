import { expect, test } from '@playwright/test';
import { resolveChromium } from './chromium.ts';
import { collectConsoleErrors } from './helpers.ts';

// Without --enable-unsafe-webgpu this Chromium offers navigator.gpu but no adapter: WebGPU is absent.
test.use({ launchOptions: { executablePath: resolveChromium(), args: ['--no-sandbox', '--disable-dev-shm-usage'] } });

test('without WebGPU the app says so, runs the CPU backend, and the engine still answers from its worker', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto('/');
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', 'cpu', { timeout: 60_000 });
  const notice = page.getByTestId('fallback-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('no GPU adapter');
  // The worker computes the tiny preset's parameter count: 50257·64 embedding + 2 layers + head.
  await page.getByTestId('preset').selectOption('tiny');
  await expect(page.getByTestId('estimate')).toHaveAttribute('data-params', '3320769');
  expect(errors).toEqual([]);
});
