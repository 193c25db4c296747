import { chromium } from '@playwright/test';
import { existsSync } from 'node:fs';

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH if set, else Playwright's own browser if it is
 * installed, else Debian's /usr/bin/chromium. Playwright cannot download browsers on a closed network,
 * so when none is found the run stops here and says how to get one.
 */
export function resolveChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist.\n${HOW_TO_GET_ONE}`);
    return fromEnv;
  }
  const candidates = [safeBundledPath(), '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const path of candidates) if (path && existsSync(path)) return path;
  throw new Error(`No Chromium found for the browser tests.\n${HOW_TO_GET_ONE}`);
}

const HOW_TO_GET_ONE = [
  'Install one:',
  '  Debian/Ubuntu:  sudo apt-get install -y chromium   (then /usr/bin/chromium is used)',
  '  where downloads work:  npx playwright install chromium',
  '  or point CHROMIUM_PATH at a Chromium/Chrome binary.',
].join('\n');

function safeBundledPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** WebGPU in headless Chromium (SwiftShader where there is no GPU); root needs --no-sandbox. */
export const CHROMIUM_ARGS = ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-dev-shm-usage'];
