import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { file, sampleLines, tinySettings } from './testing/sessionHarness.ts';
import { newDb, settle, tab } from './testing/storedSession.ts';
import type { StudioDb } from './storage/db.ts';

// Issue 48, point 1: a file with a question without samples, then a reload (a new Session on the same database).

const GOOD = sampleLines(0, 8);
// The file: a good line, then one whose samples list is empty.
const EMPTY_SAMPLES = '{"question":"Good one","responses":["1","2"],"gold":"1","id":"e3"}\n{"question":"Empty samples","responses":[],"gold":"1","id":"e1"}\n';

/** Resolves once storage names `name` as the last training file (the writes are fire-and-forget). */
async function lastStored(db: StudioDb, name: string): Promise<void> {
  for (let i = 0; i < 100 && (await db.lastTrainDataset())?.data.name !== name; i++) await settle();
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Session: a broken file never breaks a load or a reload', () => {
  it('a line without samples is rejected with its line and field; the rest loads and comes back after a reload', async () => {
    const db = await newDb('broken-files');
    const a = tab(db);
    await a.run({ type: 'loadData', role: 'train', source: file(GOOD, 'good.jsonl') });
    await a.run({ type: 'loadData', role: 'train', source: file(EMPTY_SAMPLES, 'broken.jsonl') });
    const loaded = a.last('dataset')!.summary;
    const rejected = ['line 2, field "responses": no samples: the list is empty; give at least one, or leave the line out'];
    expect([loaded.name, loaded.stats.groups, loaded.stats.candidates, loaded.firstErrors.map((e) => e.message)]).toEqual(['broken.jsonl', 1, 2, rejected]);
    await lastStored(db, 'broken.jsonl');

    const b = tab(db);
    await b.session.restore();
    const back = b.last('dataset')!.summary;
    expect([back.name, back.stats.groups, back.firstErrors.map((e) => e.message)]).toEqual(['broken.jsonl', 1, rejected]);
    await b.run({ type: 'estimate', settings: tinySettings({}) });
    expect(b.all('error')).toEqual([]);
  });

  it('a file without a valid line is refused naming file, line and field; the loaded file stays, and comes back after a reload', async () => {
    const db = await newDb('broken-files');
    const a = tab(db);
    await a.run({ type: 'loadData', role: 'train', source: file(GOOD, 'good.jsonl') });
    await lastStored(db, 'good.jsonl');
    const broken = file('{"question":"Q1","responses":[],"gold":"1"}\n{"question":"Q2","samples":[],"gold":"2"}\n', 'broken.jsonl');
    await expect(a.run({ type: 'loadData', role: 'train', source: broken })).rejects.toThrow(
      /^broken\.jsonl: No valid line.*First problem: line 1, field "responses": no samples/,
    );
    expect(a.last('dataset')!.summary.name).toBe('good.jsonl');

    const b = tab(db);
    await b.session.restore();
    expect(b.last('dataset')!.summary.name).toBe('good.jsonl');
    expect(b.all('error')).toEqual([]);
  });

  it('says the loaded data is kept once, naming it, and only when there is some (issue 48, point 12)', async () => {
    const a = tab(await newDb('broken-files'));
    const broken = () => file('{"question":"Q1","responses":[],"gold":"1"}\n', 'broken.jsonl');
    await expect(a.run({ type: 'loadData', role: 'train', source: broken() })).rejects.toThrow(/^(?!.*kept).*First problem: line 1, field "responses"[^.]*\.$/);
    await a.run({ type: 'loadData', role: 'train', source: file(GOOD, 'good.jsonl') });
    const error = await a.run({ type: 'loadData', role: 'train', source: broken() }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(error.match(/kept/g)).toEqual(['kept']);
    expect(error).toMatch(/The previously loaded data is kept \(good\.jsonl\)\.$/);
  });
});
