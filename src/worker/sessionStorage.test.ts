import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { file, sampleLines, tinySettings } from './testing/sessionHarness.ts';
import { newDb, stopAtStep, tab, writesSettled } from './testing/storedSession.ts';

// A run's record in storage, as a reload (a new Session on the same database) lists it.

const settings = tinySettings({ epochs: 2, groupsPerStep: 2, checkpointEverySteps: 2 });
const sample = sampleLines(0, 48);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Session: what a reload lists', () => {
  it('a finished run is listed with the checkpoint storage holds (its last)', async () => {
    const db = await newDb('session-storage');
    const a = tab(db);
    await a.session.handle({ type: 'loadData', role: 'train', source: file(sample) });
    await a.session.handle({ type: 'start', settings });
    const end = await a.runEnd();
    expect(end.reason).toBe('finished');
    const id = a.runs()[0].id;
    await writesSettled(db, id);

    const b = tab(db);
    await b.session.restore();
    const stored = await db.getCheckpoint(id);
    expect(stored?.step).toBe(end.steps);
    expect(b.runs().map((r) => [r.id, r.state, r.checkpointStep])).toEqual([[id, 'done', end.steps]]);
  });

  it('a stopped run is listed as paused with its checkpoint, and a resumed one is stored as running at once', async () => {
    const db = await newDb('session-storage');
    // Stop right after the checkpoint at step 4 was taken, while its write is still open.
    const a = tab(db, stopAtStep(4));
    await a.session.handle({ type: 'loadData', role: 'train', source: file(sample) });
    await a.session.handle({ type: 'start', settings });
    expect((await a.runEnd()).reason).toBe('stopped');
    const id = a.runs()[0].id;
    await writesSettled(db, id);
    const checkpoint = (await db.getCheckpoint(id))!;
    expect(checkpoint.step).toBeGreaterThan(0);

    const b = tab(db);
    await b.session.restore();
    expect(b.runs().map((r) => [r.state, r.checkpointStep])).toEqual([['paused', checkpoint.step]]);

    // The resumed run cannot reach another checkpoint here (every read is held), so what storage says
    // now was written by the resume itself.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const read = tf.Tensor.prototype.data;
    vi.spyOn(tf.Tensor.prototype, 'data').mockImplementation(async function (this: tf.Tensor) {
      await gate;
      return read.call(this);
    } as typeof read);
    await b.session.handle({ type: 'resumeRun', runId: id });
    await writesSettled(db, id);
    const resumed = (await db.getRun(id))!;
    expect([resumed.state, resumed.checkpointStep]).toEqual(['running', checkpoint.step]);
    expect(b.runs().find((r) => r.id === id)?.state).toBe('running');
    open();
    await b.session.handle({ type: 'stop' });
    await b.runEnd();
  });
});
