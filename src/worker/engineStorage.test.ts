import 'fake-indexeddb/auto';
import { type IDBPDatabase, openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { DEFAULT_TRAIN_SETTINGS } from '../engine/train/settings.ts';
import { createEngine } from './engineCore.ts';
import type { WorkerEvent } from './protocols/events.ts';
import { browserPersister } from './storage/browserStorage.ts';

/** The first schema's database with one tokenized file in it, left open as a tab of that version would. */
async function olderTab(name: string): Promise<IDBPDatabase> {
  const old = await openDB(name, 1, {
    upgrade(d) {
      d.createObjectStore('runs', { keyPath: 'id' });
      d.createObjectStore('checkpoints', { keyPath: 'runId' });
      d.createObjectStore('datasets', { keyPath: 'key' });
      d.createObjectStore('meta');
    },
  });
  const data = { name: 'old.jsonl', bytes: 10, dataset: { groups: [], candidateCount: 4, report: { accepted: 4, errors: [] } } };
  await old.put('datasets', { key: 'sha256:old', data });
  return old;
}

async function until(events: WorkerEvent[], pred: (e: WorkerEvent) => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10))) if (events.some(pred)) return true;
  return false;
}

describe('engine with its storage held by an older tab', () => {
  it('says to close the other tab, answers commands meanwhile, and restores once that tab is closed', async () => {
    const name = `engine-storage-${Math.random()}`;
    const old = await olderTab(name);
    const events: WorkerEvent[] = [];
    const emit = (e: WorkerEvent) => void events.push(e);
    const persister = browserPersister(emit, name);
    const handle = createEngine(emit, { tokenizePool: () => () => inProcessPool(), scoringPeers: () => () => [], persister, backends: ['cpu'] });
    handle({ type: 'init', backend: 'cpu' });
    expect(await until(events, (e) => e.type === 'ready')).toBe(true);
    handle({ type: 'estimate', settings: DEFAULT_TRAIN_SETTINGS });
    expect(await until(events, (e) => e.type === 'estimate', 2000)).toBe(true);
    const banner = events.find((e) => e.type === 'error' && e.command === null);
    expect(banner?.type === 'error' && banner.message).toMatch(/close the other EORM Studio tab/i);
    expect(events.some((e) => e.type === 'runs')).toBe(false);

    old.close();
    expect(await until(events, (e) => e.type === 'runs')).toBe(true);
    const listed = events.filter((e) => e.type === 'storedDatasets').at(-1);
    expect(listed?.type === 'storedDatasets' && listed.datasets.map((d) => d.name)).toEqual(['old.jsonl']);
  });
});
