/**
 * Every training file has an identity (the SHA-256 of its bytes) that a reload can check: files over
 * the storage cap are hashed as they stream, so their runs resume once the same file is loaded again.
 * Stored tokenizations are keyed by it, the tokenizer, the token cap and the reading rules' version.
 */
import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { INGEST_RULES_VERSION } from '../engine/data/ingest.ts';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { TOKEN_CAP, loadData } from './data/dataLoader.ts';
import { file, sampleLines, tinySettings } from './testing/sessionHarness.ts';
import { newDb, settle, stopAtStep, tab, writesSettled } from './testing/storedSession.ts';

const settings = tinySettings({ epochs: 2, groupsPerStep: 2, checkpointEverySteps: 2 });
const text = sampleLines(0, 48);
const other = sampleLines(48, 96);
/** Below the test files' sizes: they are "over the storage cap". */
const LOW_CAP = 4096;
const sha256 = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
const keyOf = (s: string) => `${sha256(s)}:r50k_base:${TOKEN_CAP}:rules${INGEST_RULES_VERSION}`;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Session: a run on a file over the storage cap', () => {
  it('resumes after a reload once that same file is loaded again, and says plainly to load it when it is not', async () => {
    expect(text.length).toBeGreaterThan(LOW_CAP);
    const db = await newDb('dataset-identity');
    const a = tab(db, stopAtStep(4), LOW_CAP);
    await a.session.handle({ type: 'loadData', role: 'train', source: file(text, 'big.jsonl') });
    await a.session.handle({ type: 'start', settings });
    expect((await a.runEnd()).reason).toBe('stopped');
    const id = a.runs()[0].id;
    await writesSettled(db, id);
    expect(await db.listDatasets()).toEqual([]); // over the cap: never stored
    expect((await db.getRun(id))!.datasetKey).toBe(keyOf(text));
    const checkpoint = (await db.getCheckpoint(id))!;
    expect(checkpoint.step).toBeGreaterThan(0);

    // A reload: nothing is loaded, and the file is not stored.
    const b = tab(db, undefined, LOW_CAP);
    await b.session.restore();
    expect(b.datasets()).toEqual([]);
    await expect(b.session.handle({ type: 'resumeRun', runId: id })).rejects.toThrow(
      /The file this run trained on \(big\.jsonl, sha256:[0-9a-f]{8}…\) is not loaded, and not stored in this browser.*load big\.jsonl again, then resume/,
    );
    // Another file loaded: still refused.
    await b.session.handle({ type: 'loadData', role: 'train', source: file(other, 'other.jsonl') });
    await expect(b.session.handle({ type: 'resumeRun', runId: id })).rejects.toThrow(/load big\.jsonl again, then resume/);
    // The same file, loaded again (under another name): the run resumes on it and finishes.
    await b.session.handle({ type: 'loadData', role: 'train', source: file(text, 'big (copy).jsonl') });
    await b.session.handle({ type: 'resumeRun', runId: id });
    expect(b.events).toContainEqual(
      expect.objectContaining({ type: 'log', message: expect.stringMatching(new RegExp(`from its checkpoint at step ${checkpoint.step} of`)) }),
    );
    const end = await b.runEnd();
    expect(end.reason).toBe('finished');
    await writesSettled(db, id);
    expect((await db.getRun(id))!.state).toBe('done');
  });

  it('a run recorded by an older app: resumes on the same file read now (with a warning); one with no identity says it cannot be checked', async () => {
    const db = await newDb('dataset-identity');
    const a = tab(db, stopAtStep(4));
    await a.session.handle({ type: 'loadData', role: 'train', source: file(text) });
    await a.session.handle({ type: 'start', settings });
    await a.runEnd();
    const id = a.runs()[0].id;
    await writesSettled(db, id);
    const record = (await db.getRun(id))!;
    // Its key as an older app wrote it (no rules version), and that stored entry since deleted.
    await db.putRun({ ...record, datasetKey: `${sha256(text)}:r50k_base:${TOKEN_CAP}` });
    await db.deleteDataset(keyOf(text));
    // And a copy of it from before big files had an identity.
    await db.putCheckpoint({ ...record, id: 'no-identity', datasetKey: '' }, (await db.getCheckpoint(id))!);

    const b = tab(db);
    await b.session.restore();
    await b.session.handle({ type: 'loadData', role: 'train', source: file(text) });
    await expect(b.session.handle({ type: 'resumeRun', runId: 'no-identity' })).rejects.toThrow(
      /began before every training file was given an identity.*cannot be resumed/,
    );
    await b.session.handle({ type: 'resumeRun', runId: id });
    expect(b.events).toContainEqual(
      expect.objectContaining({ type: 'log', level: 'warn', message: expect.stringMatching(/read with an older version of the app's reading rules/) }),
    );
    expect((await b.runEnd()).reason).toBe('finished');
  });
});

describe('Dataset identity and storage keys', () => {
  it('every loaded file has its SHA-256: a stored one, a recalled one, one over the cap, and one loaded with no storage at all', async () => {
    const db = await newDb('dataset-identity');
    const a = tab(db);
    await a.session.handle({ type: 'loadData', role: 'train', source: file(text) });
    await a.session.handle({ type: 'loadData', role: 'test', source: file(other) });
    for (;;) {
      if ((await db.listDatasets()).length === 2) break;
      await settle();
    }
    expect((await db.listDatasets()).map((d) => d.key).sort()).toEqual([keyOf(text), keyOf(other)].sort());

    // Streamed (no storage): the same identity and key as the stored file's.
    const streamed = await loadData('train', file(text), inProcessPool(), 1, () => undefined);
    expect(streamed.contentHash).toBe(sha256(text));
    expect(streamed.key).toBe(keyOf(text));
    // Streamed in chunks of every size by a download.
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        const bytes = new TextEncoder().encode(other);
        for (let i = 0, n = 1; i < bytes.length; i += n, n = (n * 7) % 997) c.enqueue(bytes.slice(i, i + n));
        c.close();
      },
    });
    const fetched = globalThis.fetch;
    globalThis.fetch = (async () => new Response(chunked)) as typeof fetch;
    try {
      const d = await loadData('test', { kind: 'url', url: 'http://example/other.jsonl', name: 'other.jsonl' }, inProcessPool(), 1, () => undefined);
      expect(d.contentHash).toBe(sha256(other));
    } finally {
      globalThis.fetch = fetched;
    }

    // After a reload the last training file comes back from storage, with its identity.
    const b = tab(db);
    await b.session.restore();
    expect(b.datasets().length).toBe(1);
    await b.session.handle({ type: 'start', settings: { ...settings, epochs: 1 } });
    await b.runEnd();
    const run = (await db.listRuns())[0];
    expect(run.datasetKey).toBe(keyOf(text));
  });

  it('a tokenization stored under an older key (before the rules version) is never reused, and nothing breaks on it', async () => {
    const db = await newDb('dataset-identity');
    const a = tab(db);
    await a.session.handle({ type: 'loadData', role: 'train', source: file(text) });
    // Re-store it as an older app did: key without the rules' version, and the last-file pointer on it.
    const stored = (await db.getDataset(keyOf(text)))!;
    const oldKey = `${sha256(text)}:r50k_base:${TOKEN_CAP}`;
    const { contentHash: _h, ...old } = stored;
    await db.deleteDataset(keyOf(text));
    await db.putTrainDataset(oldKey, old as typeof stored);

    // A reload does not bring the stale tokenization back.
    const b = tab(db);
    await b.session.restore();
    expect(b.datasets()).toEqual([]);
    // Loading the file tokenizes it again and stores it under the current key.
    await b.session.handle({ type: 'loadData', role: 'train', source: file(text) });
    expect(b.events.some((e) => e.type === 'ingestProgress' && e.phase === 'tokenizing')).toBe(true);
    for (;;) {
      if (await db.getDataset(keyOf(text))) break;
      await settle();
    }
    // The old entry is listed and can be deleted.
    expect((await db.listDatasets()).map((d) => d.key).sort()).toEqual([keyOf(text), oldKey].sort());
    await b.session.handle({ type: 'deleteDataset', key: oldKey });
    expect((await db.listDatasets()).map((d) => d.key)).toEqual([keyOf(text)]);
  });
});
