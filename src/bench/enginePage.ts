/**
 * Drives the app's real engine worker in headless Chromium for the benchmarks: a Vite server for the
 * repo, a browser, pages that hold an engine (e2e/pages/engine.html), commands in and events out.
 */
import { type Browser, type Page, chromium } from '@playwright/test';
import { type ViteDevServer, createServer } from 'vite';
import { CHROMIUM_ARGS, resolveChromium } from '../../e2e/chromium.ts';
import type { Command } from '../worker/protocols/commands.ts';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import type { EngineHost, EngineRuntime, Timed } from './engineHost.ts';

type Engine = { events: Array<WorkerEvent & { at: number }>; send(cmd: Command): void; now(): number };
export type { Timed } from './engineHost.ts';

export interface BenchBrowser extends EngineRuntime {
  browser: Browser;
  base: string;
  close(): Promise<void>;
}

/** `extraArgs`: more Chromium flags, e.g. those that give headless Chromium a real GPU (see gpu.bench.ts). */
export async function startBenchBrowser(extraArgs: readonly string[] = []): Promise<BenchBrowser> {
  // No HMR: an edit elsewhere in the tree must not reload a page in the middle of a measurement.
  const server: ViteDevServer = await createServer({ logLevel: 'warn', server: { host: '127.0.0.1', port: 0, hmr: false, watch: { ignored: ['**/*'] } } });
  await server.listen();
  const base = server.resolvedUrls!.local[0];
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: [...CHROMIUM_ARGS, ...extraArgs] });
  const b: BenchBrowser = {
    browser,
    base,
    newHost: async (files) => {
      const routes = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [`/__bench__/${name}.jsonl`, bytes]));
      return pageHost(await newEnginePage(b, routes));
    },
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
  return b;
}

/** A fresh page with its own engine worker; `routes` serves extra files (e.g. generated data). */
export async function newEnginePage(b: BenchBrowser, routes: Record<string, Buffer> = {}): Promise<Page> {
  const page = await b.browser.newPage();
  for (const [path, body] of Object.entries(routes)) await page.route(`**${path}`, (r) => r.fulfill({ body, contentType: 'application/x-ndjson' }));
  await page.goto(`${b.base}e2e/pages/engine.html`);
  await page.waitForFunction(() => 'engine' in window);
  return page;
}

export async function send(page: Page, cmd: Command): Promise<void> {
  // Commands here are plain JSON (no File), which is what crosses into the page.
  await page.evaluate((c) => (window as unknown as { engine: Engine }).engine.send(c as Command), cmd as unknown as Record<string, unknown>);
}

export async function now(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { engine: Engine }).engine.now());
}

export async function eventCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { engine: Engine }).engine.events.length);
}

/** Waits for the first event of a type after index `from` that satisfies `pred` (a JS expression of e); an error event aborts. */
export async function waitFor<T extends WorkerEvent['type']>(page: Page, type: T, from = 0, pred = 'true', timeoutMs = 30 * 60_000): Promise<Timed<T>> {
  const handle = await page.waitForFunction(
    ({ type, from, pred }) => {
      const ev = (window as unknown as { engine: Engine }).engine.events;
      for (let i = from; i < ev.length; i++) {
        const e = ev[i] as WorkerEvent & { at: number };
        if (e.type === 'error') return { ...e, index: i };
        // eslint-disable-next-line no-new-func
        if (e.type === type && new Function('e', `return ${pred}`)(e)) return { ...e, index: i };
      }
      return null;
    },
    { type, from, pred },
    { timeout: timeoutMs, polling: 100 },
  );
  const e = (await handle.jsonValue()) as WorkerEvent & { at: number; index: number };
  if (e.type === 'error') throw new Error(`engine error: ${e.message}`);
  return e as Timed<T>;
}

/** The engine worker of a page (newEnginePage) as an EngineHost; closing it closes the page. */
export function pageHost(page: Page): EngineHost {
  return {
    send: (cmd) => send(page, cmd),
    now: () => now(page),
    eventCount: () => eventCount(page),
    waitFor: (type, from, pred, timeoutMs) => waitFor(page, type, from, pred, timeoutMs),
    events: (from, to) => page.evaluate(([a, b]) => (window as unknown as { engine: Engine }).engine.events.slice(a, b), [from, to]),
    countersOn: (pred) =>
      page.evaluate((pred) => {
        const engine = (window as unknown as { engine: Engine }).engine;
        const push = engine.events.push.bind(engine.events);
        // eslint-disable-next-line no-new-func
        const hit = new Function('e', `return ${pred}`) as (e: WorkerEvent) => boolean;
        let asked = false;
        engine.events.push = (...evs) => {
          // Once, at the first event that matches.
          if (!asked && evs.some(hit)) {
            asked = true;
            engine.send({ type: 'counters' });
          }
          return push(...evs);
        };
      }, pred),
    source: (name) => ({ kind: 'url', url: `/__bench__/${name}.jsonl`, name }),
    close: () => page.close(),
  };
}
