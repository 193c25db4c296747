import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import type { TrainPoint } from '../../engine/train/loop.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { SavedRunInfo, SavedRunState } from '../protocols/training.ts';
import { SavedRuns } from './savedRuns.ts';
import { StudioDb, type StoredData, type StoredRun } from '../storage/db.ts';
import { type FakeLocks, fakeLocks } from '../testing/fakeLocks.ts';
import { Persister } from '../storage/persister.ts';
import { storedRun } from '../testing/storedRun.ts';

const point = (step: number): TrainPoint => ({ step, epoch: 1, loss: 1, smoothed: 1, lr: 0, gradNorm: 1 });
const settle = () => new Promise((r) => setTimeout(r, 5));
const lockOf = (id: string) => `eorm-studio-run:${id}`;

const run = (id: string, state: SavedRunState, steps: number, checkpointStep = 0): StoredRun =>
  storedRun({ id, state, checkpointStep, points: Array.from({ length: steps }, (_, i) => point(i)) });

let locks: FakeLocks;
let db: StudioDb;
let events: WorkerEvent[];
let told: string[];

beforeEach(async () => {
  locks = fakeLocks();
  vi.stubGlobal('navigator', { locks: locks.manager });
  db = (await StudioDb.open(`saved-runs-${Math.random()}`))!;
  events = [];
  told = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const tab = () => new SavedRuns(new Persister(Promise.resolve(db), (m) => told.push(m)), (e) => events.push(e));
const listed = (): SavedRunInfo[] => events.filter((e) => e.type === 'runs').at(-1)?.runs ?? [];
const listedAs = (id: string) => listed().find((r) => r.id === id);

describe('SavedRuns with another tab', () => {
  it('a run that the other tab finishes while this tab lists the runs is never written back as interrupted', async () => {
    await db.putRun(run('r1', 'running', 5));
    const otherTab = await locks.hold(lockOf('r1'));
    // The other tab finishes the run just after this tab read the list, before it asks about the locks.
    locks.beforeNextCall(async () => {
      await db.putRun(run('r1', 'done', 10));
      otherTab();
    });
    const saved = tab();
    await saved.load();
    saved.emitRuns();
    for (let i = 0; i < 5; i++) await settle();
    const stored = (await db.getRun('r1'))!;
    expect([stored.state, stored.points.length]).toEqual(['done', 10]);
    expect(listedAs('r1')?.state).toBe('done');
  });

  it('a run whose lock is let go after the list was made (an old engine after Restart) is listed again, as interrupted', async () => {
    await db.putRun(run('r1', 'running', 5, 4));
    const oldEngine = await locks.hold(lockOf('r1'));
    const saved = tab();
    await saved.load();
    saved.emitRuns();
    expect(listedAs('r1')?.state).toBe('running');
    oldEngine();
    for (let i = 0; i < 20 && listedAs('r1')?.state !== 'interrupted'; i++) await settle();
    expect(listedAs('r1')?.state).toBe('interrupted');
    expect((await db.getRun('r1'))?.state).toBe('interrupted');
  });

  it('a run still trained in the other tab is listed as it stands there, and is neither relabelled nor deletable', async () => {
    await db.putRun(run('r1', 'paused', 5, 4));
    await locks.hold(lockOf('r1'));
    const saved = tab();
    await saved.load();
    saved.emitRuns();
    expect(listedAs('r1')?.state).toBe('paused');
    await expect(saved.deleteRun('r1', null)).rejects.toThrow(/another tab/);
    expect((await db.getRun('r1'))?.state).toBe('paused');
  });
});

describe('SavedRuns deletes', () => {
  const failing = () => Promise.reject(new Error('disk on fire'));

  it('a run whose delete failed stays listed, and the user is told', async () => {
    await db.putRun(run('r1', 'done', 5));
    const saved = tab();
    await saved.load();
    saved.emitRuns();
    db.deleteRun = failing;
    await expect(saved.deleteRun('r1', null)).rejects.toThrow(/Could not delete the run.*disk on fire/);
    saved.emitRuns();
    expect(listedAs('r1')).toBeDefined();
  });

  it('a checkpoint whose delete failed stays listed, and the user is told', async () => {
    await db.putCheckpoint(run('r1', 'paused', 5, 4), { step: 4 } as RunCheckpoint);
    const saved = tab();
    await saved.load();
    saved.emitRuns();
    db.deleteCheckpoint = failing;
    await expect(saved.deleteCheckpoint('r1', null)).rejects.toThrow(/Could not delete the checkpoint.*disk on fire/);
    saved.emitRuns();
    expect(listedAs('r1')?.checkpointStep).toBe(4);
    expect((await db.getRun('r1'))?.checkpointStep).toBe(4);
  });

  it('a dataset whose delete failed stays listed, and the user is told', async () => {
    await db.putDataset('k', { name: 'a.jsonl', bytes: 10, dataset: { candidateCount: 4 } } as unknown as StoredData);
    const saved = tab();
    db.deleteDataset = failing;
    await expect(saved.deleteDataset('k')).rejects.toThrow(/Could not delete the dataset.*disk on fire/);
    expect(events.filter((e) => e.type === 'storedDatasets')).toEqual([]);
  });

  it('deletes that succeed update the lists', async () => {
    await db.putCheckpoint(run('r1', 'paused', 5, 4), { step: 4 } as RunCheckpoint);
    await db.putRun(run('r2', 'done', 5));
    await db.putDataset('k', { name: 'a.jsonl', bytes: 10, dataset: { candidateCount: 4 } } as unknown as StoredData);
    const saved = tab();
    await saved.load();
    await saved.deleteCheckpoint('r1', null);
    expect(listedAs('r1')?.checkpointStep).toBe(0);
    expect(await db.getCheckpoint('r1')).toBeUndefined();
    await saved.deleteRun('r2', null);
    expect(listedAs('r2')).toBeUndefined();
    await saved.deleteDataset('k');
    expect(events.filter((e) => e.type === 'storedDatasets').at(-1)).toEqual({ type: 'storedDatasets', datasets: [] });
    expect(told).toEqual([]);
  });
});
