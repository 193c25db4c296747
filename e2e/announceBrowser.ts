import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, resolveChromium } from './chromium.ts';

/** Global setup: names the browser the suite drives, so that a failure names it too. */
export default async function announceBrowser(): Promise<void> {
  const executablePath = resolveChromium();
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  console.log(`Browser tests drive Chromium ${browser.version()} (${executablePath})`);
  await browser.close();
}
