import 'fake-indexeddb/auto';
import { type IDBPDatabase, openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { StudioDb } from './db.ts';

let n = 0;
const freshName = () => `eorm-db-test-${++n}-${Math.random()}`;

/** The first schema (commit 6965176, version 1), as an older tab of the app opens it: no versionchange handler. */
function openFirstSchema(name: string): Promise<IDBPDatabase> {
  return openDB(name, 1, {
    upgrade(d) {
      d.createObjectStore('runs', { keyPath: 'id' });
      d.createObjectStore('checkpoints', { keyPath: 'runId' });
      d.createObjectStore('datasets', { keyPath: 'key' });
      d.createObjectStore('meta');
    },
  });
}

/** A tokenized file as version 1 stored it (StoredData of that commit). */
const v1Data = (name: string, candidates: number) => ({
  name,
  bytes: 1234,
  dataset: { groups: [], candidateCount: candidates, report: { accepted: candidates, errors: [] } },
  view: { tokens: { data: new Int32Array([1, 2, 3]), offsets: new Uint32Array([0, 3]) }, groupStart: new Uint32Array([0, 1]) },
  answers: ['18'],
  timing: { parseMs: 1, tokenizeMs: 2 },
});

const v1Run = (id: string, checkpointStep: number) => ({
  id,
  createdAt: 1,
  settings: {},
  cfg: {},
  datasetKey: 'sha256:aa:r50k_base:512',
  datasetName: 'train.jsonl',
  splitSeed: 42,
  totalSteps: 100,
  state: 'paused',
  checkpointStep,
  points: [],
  evaluations: [],
  bestValBestOfN: null,
});

async function fillFirstSchema(name: string): Promise<void> {
  const old = await openFirstSchema(name);
  await old.put('datasets', { key: 'sha256:aa:r50k_base:512', data: v1Data('train.jsonl', 6) });
  await old.put('datasets', { key: 'sha256:bb:r50k_base:512', data: v1Data('test.jsonl', 4) });
  await old.put('meta', 'sha256:aa:r50k_base:512', 'lastTrainDataset');
  // A run whose record lost its checkpoint step to the old race (the checkpoint itself is at step 50).
  await old.put('runs', v1Run('r1', 0));
  await old.put('checkpoints', { runId: 'r1', checkpoint: { step: 50, epoch: 1, stepInEpoch: 50 } });
  old.close();
}

/** Resolves with the outcome of `p`, or 'pending' when it has not settled within `ms`. */
async function within<T>(p: Promise<T>, ms = 300): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
}

describe('StudioDb upgrades', () => {
  it('an upgrade from the first schema lists (and deletes) the datasets stored before it, and keeps runs and the last training file', async () => {
    const name = freshName();
    await fillFirstSchema(name);
    const db = (await StudioDb.open(name))!;
    const listed = (await db.listDatasets()).map((d) => [d.key, d.name, d.bytes, d.candidates]).sort();
    expect(listed).toEqual([
      ['sha256:aa:r50k_base:512', 'train.jsonl', 1234, 6],
      ['sha256:bb:r50k_base:512', 'test.jsonl', 1234, 4],
    ]);
    expect((await db.lastTrainDataset())?.data.name).toBe('train.jsonl');
    expect((await db.listRuns()).map((r) => r.id)).toEqual(['r1']);
    await db.deleteDataset('sha256:aa:r50k_base:512');
    expect((await db.listDatasets()).map((d) => d.key)).toEqual(['sha256:bb:r50k_base:512']);
    expect(await db.getDataset('sha256:aa:r50k_base:512')).toBeUndefined();
    expect(await db.lastTrainDataset()).toBeNull();
  });

  it('a run record names the checkpoint storage holds after the upgrade (records written by the old race are repaired)', async () => {
    const name = freshName();
    await fillFirstSchema(name);
    const db = (await StudioDb.open(name))!;
    expect((await db.getRun('r1'))?.checkpointStep).toBe(50);
  });

  it('a database already at version 2 with an empty dataset list gets its datasets listed', async () => {
    const name = freshName();
    await fillFirstSchema(name);
    // Version 2 as shipped: it only added the (empty) info store.
    const v2 = await openDB(name, 2, { upgrade: (d) => void d.createObjectStore('datasetInfo', { keyPath: 'key' }) });
    v2.close();
    const db = (await StudioDb.open(name))!;
    expect((await db.listDatasets()).map((d) => d.name).sort()).toEqual(['test.jsonl', 'train.jsonl']);
  });
});

describe('StudioDb with other tabs', () => {
  it('an open blocked by an older tab says so in plain words, and goes through once that tab is closed', async () => {
    const name = freshName();
    await fillFirstSchema(name);
    const oldTab = await openFirstSchema(name);
    const told: string[] = [];
    const opening = StudioDb.open(name, { blocked: (m) => told.push(m) });
    expect(await within(opening)).toBe('pending');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/close the other EORM Studio tab/i);
    oldTab.close();
    const db = await opening;
    expect((await db!.listDatasets()).length).toBe(2);
  });

  it('lets go of its connection when another tab upgrades, and says to reload', async () => {
    const name = freshName();
    const told: string[] = [];
    const db = (await StudioDb.open(name, { closed: (m) => told.push(m) }))!;
    const newer = openDB(name, 99);
    expect(await within(newer, 1000)).not.toBe('pending');
    expect(told.join('\n')).toMatch(/newer version of EORM Studio.*reload this tab/i);
    (await newer).close();
    await expect(db.listRuns()).rejects.toThrow(/reload this tab/i);
  });

  it('reopens by itself when its database was deleted meanwhile (site data cleared)', async () => {
    const name = freshName();
    const db = (await StudioDb.open(name))!;
    await db.markLastTrain('k');
    const deleting = new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase(name);
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
    });
    expect(await within(deleting, 1000)).not.toBe('pending');
    expect(await db.listRuns()).toEqual([]);
    expect(await db.lastTrainDataset()).toBeNull();
  });
});
