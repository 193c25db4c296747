/**
 * The app's split options end to end (issue 20): new runs hold out 'all' questions; "hold out sources"
 * trains on the other generators' candidates and validates on the held-out ones' (the same questions held
 * out); the record says which, and continuing the model keeps it whatever the form says.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { candidateSources } from '../engine/data/candidateSources.ts';
import { splitGroups } from '../engine/data/split.ts';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { readModel } from '../engine/io/modelFile.ts';
import { loadData } from './data/dataLoader.ts';
import { type Harness, file, harness, sampleLines, tinySettings } from './testing/sessionHarness.ts';

const settings = tinySettings({ epochs: 1, groupsPerStep: 8 });
// 50 groups of four candidates, one from each of the sample's four sources.
const text = sampleLines(0, 200);
const HELD = 'gpt3-6b_verification';

/** Every validation group Inspect shows, with the texts of its candidates. */
async function validated(h: Harness): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  await h.run({ type: 'inspect', set: 'val', filter: 'all', position: 0 });
  const n = h.last('inspectGroup')!.matching;
  for (let p = 0; p < n; p++) {
    await h.run({ type: 'inspect', set: 'val', filter: 'all', position: p });
    const e = h.last('inspectGroup')!;
    out.set(e.groupIndex, e.candidates.map((c) => c.text).sort());
  }
  return out;
}

async function exportedSplit(h: Harness): Promise<unknown> {
  await h.run({ type: 'export' });
  return readModel(
    h
      .all('exported')
      .filter((e) => e.what !== 'card')
      .at(-1)!.bytes,
  ).training!.split;
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Session: split kinds and held-out sources', () => {
  it('offers the sources, holds out all questions by default, and validates on the held-out sources only', async () => {
    const d = await loadData('train', file(text), inProcessPool(), 0, () => undefined);
    const view = { ...d.view, sources: candidateSources(d.dataset) };
    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    const loaded = h.last('dataset')!.summary;
    expect([...loaded.sources!].sort()).toEqual(['gpt3-175b_finetuning', 'gpt3-175b_verification', 'gpt3-6b_finetuning', 'gpt3-6b_verification']);
    const all = splitGroups(view, { seed: 42, kind: 'all' });
    expect(loaded.split).toEqual({ seed: 42, train: all.train.length, val: all.val.length, kind: 'all', holdoutSources: [] });
    expect(all.val.length).toBeGreaterThan(splitGroups(view, { seed: 42 }).val.length); // single-label questions are validated on too

    await h.run({ type: 'start', settings: { ...settings, holdoutSources: [HELD] } });
    await h.runEnd();
    const want = splitGroups(view, { seed: 42, kind: 'all', holdoutSources: [HELD] });
    expect(h.last('dataset')!.summary.split).toMatchObject({ kind: 'all', holdoutSources: [HELD], train: want.train.length, val: want.val.length });
    const shown = await validated(h);
    expect([...shown.keys()].sort((a, b) => a - b)).toEqual(Array.from(want.val).sort((a, b) => a - b));
    for (const [g, texts] of shown) {
      const held = d.dataset.groups[g].candidates.filter((c) => c.source === HELD).map((c) => c.genText);
      expect(texts, `group ${g}`).toEqual(held.sort());
    }
    expect(await exportedSplit(h)).toEqual({ seed: 42, trainFraction: 0.8, dataset: d.contentHash, kind: 'all', holdoutSources: [HELD] });

    // Continuing the model keeps its split, whatever the form now asks for.
    await h.run({ type: 'start', settings: { ...settings, seed: 7, splitKind: 'mixed', holdoutSources: [], init: 'continue' } });
    await h.runEnd(2);
    expect(h.last('dataset')!.summary.split).toMatchObject({ seed: 42, kind: 'all', holdoutSources: [HELD] });
  });

  it("a fresh run with 'both labels only' splits as every run before kinds, and records it", async () => {
    const d = await loadData('train', file(text), inProcessPool(), 0, () => undefined);
    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'start', settings: { ...settings, splitKind: 'mixed' } });
    await h.runEnd();
    const want = splitGroups(d.view, { seed: 42 });
    expect(h.last('dataset')!.summary.split).toEqual({ seed: 42, train: want.train.length, val: want.val.length, kind: 'mixed', holdoutSources: [] });
    expect([...(await validated(h)).keys()].sort((a, b) => a - b)).toEqual(Array.from(want.val).sort((a, b) => a - b));
    expect(await exportedSplit(h)).toEqual({ seed: 42, trainFraction: 0.8, dataset: d.contentHash, kind: 'mixed' });
  });
});
