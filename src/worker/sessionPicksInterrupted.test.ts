import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { file, modelFile, sampleLines } from './testing/sessionHarness.ts';
import { newDb, settle, tab } from './testing/storedSession.ts';

// Issue 48, point 8: a picks run cut off by a reload is told as interrupted after it (a new Session on the same
// database), as training runs are; one that ended is not.

beforeAll(() => tf.setBackend('cpu'));

describe('Session: a picks run and a reload', () => {
  it('a run under way when the page went away is told as interrupted, with how far it got; once', async () => {
    const db = await newDb('picks-interrupted');
    const a = tab(db);
    await a.run({ type: 'loadData', role: 'train', source: file(sampleLines(0, 48), 'sample.jsonl') });
    await a.run({ type: 'import', bytes: await modelFile(3), fileName: 'tiny.safetensors' });
    // The page "goes away" while the run scores: every read of a result waits until the test lets it go.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const read = tf.Tensor.prototype.data;
    const held = vi.spyOn(tf.Tensor.prototype, 'data').mockImplementation(async function (this: tf.Tensor) {
      await gate;
      return read.call(this);
    } as typeof read);
    const running = a.run({ type: 'picks', set: 'train', rule: 'majority' });
    for (let i = 0; i < 100 && (await db.listPicksRuns()).length === 0; i++) await settle();

    const b = tab(db);
    await b.session.restore();
    expect(b.all('picksProgress')).toMatchObject([
      {
        state: 'interrupted',
        dataName: 'sample.jsonl',
        done: 0,
        total: 12,
        message: expect.stringMatching(/^Pick answers on sample\.jsonl was cut off by a reload .* after 0 of 12 questions: its picks were not kept/),
      },
    ]);
    const again = tab(db);
    await again.session.restore();
    expect(again.all('picksProgress')).toEqual([]);
    open();
    await running;
    held.mockRestore();
  });

  it('a run that ended leaves nothing to tell', async () => {
    const db = await newDb('picks-interrupted');
    const a = tab(db);
    await a.run({ type: 'loadData', role: 'train', source: file(sampleLines(0, 48), 'sample.jsonl') });
    await a.run({ type: 'import', bytes: await modelFile(3), fileName: 'tiny.safetensors' });
    await a.run({ type: 'picks', set: 'train', rule: 'majority' });
    for (let i = 0; i < 100 && (await db.listPicksRuns()).length > 0; i++) await settle();
    const b = tab(db);
    await b.session.restore();
    expect(b.all('picksProgress')).toEqual([]);
  });
});
