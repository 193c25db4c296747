import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { file, sampleLines } from './testing/sessionHarness.ts';
import { newDb, settle, tab } from './testing/storedSession.ts';
import type { StudioDb } from './storage/db.ts';

// Issue 48, point 7: after a reload (a new Session on the same database) the training file loaded last comes
// back, or the data panel is told why another one did.

const GOOD = sampleLines(0, 8);
const GOOD_BYTES = new Blob([GOOD]).size;
const OTHER = sampleLines(8, 16);

/** Resolves once storage names `name` as the last training file (the writes are fire-and-forget). */
async function lastStored(db: StudioDb, name: string): Promise<void> {
  for (let i = 0; i < 100 && (await db.lastTrainDataset())?.data.name !== name; i++) await settle();
}

/** Resolves once storage names `name` as the training file loaded last. */
async function lastLoaded(db: StudioDb, name: string): Promise<void> {
  for (let i = 0; i < 100 && (await db.lastTrainLoad())?.name !== name; i++) await settle();
}

describe('Session: what a reload brings back of the training data', () => {
  it('files dropped together are stored and come back', async () => {
    const db = await newDb('restore-note');
    const a = tab(db);
    await a.run({ type: 'loadData', role: 'train', source: file(GOOD, 'good.jsonl') });
    const files = [new File([GOOD], 'a.jsonl'), new File([OTHER], 'b.jsonl')];
    await a.run({ type: 'loadData', role: 'train', source: { kind: 'files', files } });
    await lastStored(db, 'a.jsonl + b.jsonl');

    const b = tab(db);
    await b.session.restore();
    expect([b.last('dataset')!.summary.name, b.last('dataset')!.summary.stats.groups]).toEqual(['a.jsonl + b.jsonl', 4]);
    expect(b.all('dataNote')).toEqual([]);
  });

  it('a file too big to store: the one before comes back, and the panel says which was loaded last and why it is not back', async () => {
    const db = await newDb('restore-note');
    const a = tab(db, undefined, GOOD_BYTES);
    await a.run({ type: 'loadData', role: 'train', source: file(GOOD, 'good.jsonl') });
    await lastStored(db, 'good.jsonl');
    await a.run({ type: 'loadData', role: 'train', source: file(`${OTHER}\n${GOOD}`, 'big.jsonl') });
    await lastLoaded(db, 'big.jsonl');

    const b = tab(db, undefined, GOOD_BYTES);
    await b.session.restore();
    expect(b.last('dataset')!.summary.name).toBe('good.jsonl');
    expect(b.last('dataNote')).toMatchObject({
      role: 'train',
      message: expect.stringMatching(
        /^big\.jsonl was the training file loaded last, but it is not in this browser's storage .*good\.jsonl, loaded before it, is back instead\. Load big\.jsonl again/,
      ),
    });
  });

  it('a reload while the file is still being stored: the panel says so', async () => {
    const db = await newDb('restore-note');
    const a = tab(db);
    await a.run({ type: 'loadData', role: 'train', source: file(GOOD, 'good.jsonl') });
    await lastStored(db, 'good.jsonl');
    // The page goes away before the second file's write commits: that write never lands.
    const closing = Object.create(db) as StudioDb;
    closing.putTrainDataset = () => new Promise<void>(() => undefined);
    const c = tab(closing);
    await c.run({ type: 'loadData', role: 'train', source: file(OTHER, 'other.jsonl') });
    await lastLoaded(db, 'other.jsonl');

    const b = tab(db);
    await b.session.restore();
    expect(b.last('dataset')!.summary.name).toBe('good.jsonl');
    expect(b.last('dataNote')!.message).toMatch(/^other\.jsonl was the training file loaded last/);
  });
});
