import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import type { TrainPoint } from '../../engine/train/loop.ts';
import type { SavedRunInfo } from '../protocols/training.ts';
import { RunRecorder } from './runRecorder.ts';
import { StudioDb, type StoredRun } from '../storage/db.ts';
import { Persister } from '../storage/persister.ts';
import { storedRun } from '../testing/storedRun.ts';

const point = (step: number): TrainPoint => ({ step, epoch: 1, loss: 1, smoothed: 0.5 + step, lr: 0, gradNorm: 1 });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('RunRecorder', () => {
  it('stores a checkpoint with the history up to it, and lists its step only once the write is committed', async () => {
    const written: Array<{ run: StoredRun; step: number }> = [];
    let commit: () => void = () => undefined;
    const db = {
      putCheckpoint: (run: StoredRun, c: RunCheckpoint) => {
        written.push({ run, step: c.step });
        return new Promise<void>((resolve) => (commit = resolve));
      },
    } as unknown as StudioDb;
    const listed: SavedRunInfo[] = [];
    const r = new RunRecorder(storedRun(), new Persister(Promise.resolve(db), () => undefined), (info) => listed.push(info));
    // Points arrive before and after the checkpoint is delivered (it is read back while training goes on).
    r.points([0, 1, 2, 3, 4, 5].map(point));
    r.checkpoint({ step: 4 } as RunCheckpoint);
    await settle();
    expect(written).toHaveLength(1);
    expect(written[0].run.points.map((p) => p.step)).toEqual([0, 1, 2, 3]);
    expect(written[0].run.checkpointStep).toBe(4);
    expect(listed).toEqual([]);
    commit();
    await settle();
    expect(listed.map((i) => [i.checkpointStep, i.lastLoss])).toEqual([[4, 5.5]]);
  });

  // The state change is issued while the checkpoint's write is still open (a run finishing, a pause or
  // stop right after a checkpoint, a lost device): the record must still name the stored checkpoint.
  for (const state of ['done', 'paused', 'interrupted'] as const) {
    it(`a run that turns ${state} while its checkpoint is being written is stored with that checkpoint's step`, async () => {
      const db = (await StudioDb.open(`recorder-${state}-${Math.random()}`))!;
      const r = new RunRecorder(storedRun(), new Persister(Promise.resolve(db), () => undefined), () => undefined);
      await db.putRun(storedRun());
      r.points([0, 1, 2, 3, 4, 5].map(point));
      r.checkpoint({ step: 6 } as RunCheckpoint);
      r.setState(state);
      for (let i = 0; i < 20; i++) await settle();
      const stored = (await db.getRun('r1'))!;
      expect([stored.state, stored.checkpointStep, (await db.getCheckpoint('r1'))?.step]).toEqual([state, 6, 6]);
      expect(stored.points.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5]);
    });
  }
});
