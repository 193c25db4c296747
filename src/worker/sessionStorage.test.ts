import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { inProcessPool } from '../engine/data/tokenizePool.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../engine/train/settings.ts';
import type { WorkerEvent } from './protocol.ts';
import { Session } from './session.ts';
import { file } from './sessionHarness.ts';
import { StudioDb } from './storage/db.ts';
import { Persister } from './storage/persister.ts';

// A run's record in storage, as a reload (a new Session on the same database) lists it.

const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  preset: 'custom',
  model: { dModel: 8, nHeads: 2, nLayers: 1, ffnDim: 16, dropout: 0.1, maxLen: 32, positional: 'none' },
  epochs: 2,
  lr: 1e-2,
  groupsPerStep: 2,
  checkpointEverySteps: 2,
};
const sample = readFileSync('public/sample/gsm8k_gpt3_openai_4cand.jsonl', 'utf8').split('\n').slice(0, 48).join('\n');
const settle = () => new Promise((r) => setTimeout(r, 20));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A Session on `db` (a tab, or the same tab after a reload); `onEvent` may answer within the same task. */
function tab(db: StudioDb, onEvent?: (e: WorkerEvent, send: (cmd: Parameters<Session['handle']>[0]) => void) => void) {
  const events: WorkerEvent[] = [];
  const warnings: string[] = [];
  const send = (cmd: Parameters<Session['handle']>[0]) => void session.handle(cmd);
  const session: Session = new Session(
    (e) => {
      events.push(e);
      onEvent?.(e, send);
    },
    () => inProcessPool(),
    () => null,
    new Persister(Promise.resolve(db), (m) => warnings.push(m)),
  );
  const runEnd = async () => {
    for (;;) {
      const end = events.find((e) => e.type === 'complete' || (e.type === 'error' && e.command === 'start'));
      if (end?.type === 'complete') return end;
      if (end?.type === 'error') throw new Error(end.message);
      await settle();
    }
  };
  const runs = () => (events.filter((e) => e.type === 'runs').at(-1) as Extract<WorkerEvent, { type: 'runs' }> | undefined)?.runs ?? [];
  return { session, events, warnings, runEnd, runs };
}

/** Lets the writes already issued commit (they are fire and forget). */
async function writesSettled(db: StudioDb, id: string): Promise<void> {
  let last = '';
  for (let i = 0; i < 50; i++) {
    await settle();
    const now = JSON.stringify(await db.getRun(id));
    if (now === last) return;
    last = now;
  }
}

const newDb = () => StudioDb.open(`session-storage-${Math.random()}`) as Promise<StudioDb>;

describe('Session: what a reload lists', () => {
  it('a finished run is listed with the checkpoint storage holds (its last)', async () => {
    const db = await newDb();
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
    const db = await newDb();
    let stopSent = false;
    // Stop right after the checkpoint at step 4 was taken, while its write is still open.
    const a = tab(db, (e, send) => {
      if (e.type === 'metrics' && !stopSent && e.points.at(-1)!.step >= 4) {
        stopSent = true;
        send({ type: 'stop' });
      }
    });
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
