import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_SETTINGS } from '../engine/train/settings.ts';
import type { BackendInfo } from '../worker/backend/backendInfo.ts';
import { isRunActive } from './engineState.ts';
import { createEngineStore } from './engineStore.ts';
import { replay, summary, trainState } from './testing/storeEvents.ts';

describe('engine store: data loading', () => {
  it('goes empty → loading → ready for the train role', () => {
    const store = createEngineStore();
    expect(store.getState().data.train.status).toBe('empty');
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'x', name: 'x' } });
    expect(store.getState().data.train.status).toBe('loading');
    store.getState().eventReceived({ type: 'ingestProgress', role: 'train', phase: 'reading', done: 5, total: 10, lines: 3, etaSeconds: 1 });
    expect(store.getState().data.train.progress?.done).toBe(5);
    store.getState().eventReceived({ type: 'dataset', summary: summary('train', 8), reason: 'loaded' });
    const slot = store.getState().data.train;
    expect(slot.status).toBe('ready');
    expect(slot.progress).toBeNull();
    expect(slot.summary?.stats.lines.read).toBe(8);
    expect(store.getState().data.test.status).toBe('empty');
  });

  it('keeps the previous summary when a later load fails, and names the command in a banner', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'bad', name: 'bad' } });
    store.getState().eventReceived({ type: 'error', command: 'loadData', message: 'not JSONL' });
    const s = store.getState();
    expect(s.data.train.status).toBe('ready');
    expect(s.data.train.summary?.stats.lines.read).toBe(8);
    expect(s.data.train.lastError).toBe('not JSONL');
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatchObject({ command: 'loadData', message: 'not JSONL' });
  });

  it('attributes a load error to the role the worker names, even when another load was sent later', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'test', source: { kind: 'url', url: 'bad', name: 'bad' } });
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'ok', name: 'ok' } });
    store.getState().eventReceived({ type: 'error', command: 'loadData', message: 'boom', role: 'test' });
    expect(store.getState().data.test.status).toBe('error');
    expect(store.getState().data.train.status).toBe('loading');
  });

  it("a successful load takes down the banners of its role's earlier failed loads, not the others (issue 48, point 12)", () => {
    const store = replay([
      { type: 'error', command: 'loadData', message: 'first', role: 'train' },
      { type: 'error', command: 'loadData', message: 'second', role: 'train' },
      { type: 'error', command: 'loadData', message: 'test file', role: 'test' },
      { type: 'error', command: 'rerank', message: 'other' },
      { type: 'dataset', summary: summary('train', 8), reason: 'loaded' },
    ]);
    expect(store.getState().errors.map((e) => e.message)).toEqual(['test file', 'other']);
  });

  it("shows the worker's note about a role's data until the next load of that role (issue 48, point 7)", () => {
    const store = replay([
      { type: 'dataset', summary: summary('train', 8), reason: 'loaded' },
      { type: 'dataNote', role: 'train', message: 'b.jsonl was the training file loaded last, but ...' },
      { type: 'dataset', summary: summary('train', 8), reason: 'refreshed' },
    ]);
    expect([store.getState().data.train.note, store.getState().data.test.note]).toEqual(['b.jsonl was the training file loaded last, but ...', null]);
    store.getState().eventReceived({ type: 'dataset', summary: summary('train', 9), reason: 'loaded' });
    expect(store.getState().data.train.note).toBeNull();
  });

  it('a refreshed summary during a load updates the figures but keeps the load running', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'x', name: 'x' } });
    store.getState().eventReceived({ type: 'dataset', summary: summary('train', 9), reason: 'refreshed' });
    expect(store.getState().data.train.status).toBe('loading');
    expect(store.getState().data.train.summary?.stats.lines.read).toBe(9);
  });

  it('attributes a load error to the role of the last loadData, and shows error with no previous data', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'test', source: { kind: 'url', url: 'bad', name: 'bad' } });
    store.getState().eventReceived({ type: 'error', command: 'loadData', message: 'boom' });
    expect(store.getState().data.test.status).toBe('error');
    expect(store.getState().data.train.status).toBe('ready');
    expect(store.getState().data.train.lastError).toBeNull();
  });

  it('tracks an evaluation under way until its last candidate is scored', () => {
    const store = createEngineStore();
    store.getState().eventReceived({ type: 'evalProgress', set: 'val', done: 16, total: 40 });
    expect(store.getState().evalProgress).toEqual({ set: 'val', done: 16, total: 40 });
    store.getState().eventReceived({ type: 'evalProgress', set: 'val', done: 40, total: 40 });
    expect(store.getState().evalProgress).toBeNull();
  });

  it('dismissing a banner removes only that banner', () => {
    const store = replay([
      { type: 'error', command: 'rerank', message: 'a' },
      { type: 'error', command: null, message: 'b' },
    ]);
    store.getState().dismissError(store.getState().errors[0].id);
    expect(store.getState().errors.map((e) => e.message)).toEqual(['b']);
  });
});

describe('engine store: requests and replies', () => {
  it('marks a request pending until its reply or an error naming it', () => {
    const store = createEngineStore();
    store.getState().commandSent({ type: 'inspect', set: 'val', filter: 'all', position: 0 });
    store.getState().commandSent({ type: 'rerank', question: 'q', candidates: 'a\n---\nb' });
    expect(store.getState().pending).toMatchObject({ inspect: true, rerank: true });
    store.getState().eventReceived({
      type: 'inspectGroup',
      set: 'val',
      filter: 'all',
      position: 0,
      matching: 3,
      groupIndex: 7,
      question: 'q',
      candidates: [],
    });
    store.getState().eventReceived({ type: 'error', command: 'rerank', message: 'no model' });
    const s = store.getState();
    expect(s.pending.inspect).toBe(false);
    expect(s.pending.rerank).toBe(false);
    expect(s.inspect?.groupIndex).toBe(7);
    expect(s.rerank).toBeNull();
  });

  it('stores the models list and clears selectModel/import', () => {
    const store = createEngineStore();
    store.getState().commandSent({ type: 'selectModel', slot: 'best' });
    store.getState().eventReceived({
      type: 'models',
      active: 'best',
      available: [
        {
          slot: 'best',
          source: 'trained',
          params: 123,
          model: { dModel: 64, nHeads: 4, nLayers: 2, ffnDim: 256, dropout: 0.2, maxLen: 256, positional: 'none' },
          description: 'epoch 1',
          epoch: 1,
          step: 10,
          valBestOfN: 0.5,
          warnings: [],
          revision: 3,
        },
      ],
    });
    const s = store.getState();
    expect(s.models.active).toBe('best');
    expect(s.models.available[0].params).toBe(123);
    expect(s.pending.selectModel).toBe(false);
  });
});

describe('engine store: a dead engine worker and its restart', () => {
  const backendInfo: BackendInfo = { backend: 'wasm', requested: 'wasm', adapter: null, threads: 1, reason: 'asked for', probes: [] };
  const savedRun = (state: 'running' | 'interrupted') => ({
    id: 'r1',
    createdAt: 1,
    datasetName: 'train.jsonl',
    datasetHash: null,
    split: { seed: 42, trainFraction: 0.8 },
    settings: DEFAULT_TRAIN_SETTINGS,
    model: DEFAULT_TRAIN_SETTINGS.model,
    state,
    checkpointStep: 6,
    totalSteps: 20,
    lastLoss: 0.5,
    bestValBestOfN: null,
  });

  it('ends what the dead worker was doing: the run shows stopped, no request stays pending, a load in progress ends', () => {
    const store = replay([{ type: 'ready', backend: backendInfo, hardwareConcurrency: 2 }, trainState('training', 7)]);
    store.getState().commandSent({ type: 'evaluate', set: 'val' });
    store.getState().commandSent({ type: 'loadData', role: 'test', source: { kind: 'url', url: 'x', name: 'x' } });
    store.getState().engineStopped({ verdict: 'gone', silentMs: 25_000 });
    const s = store.getState();
    expect(s.engineDown).toEqual({ verdict: 'gone', silentMs: 25_000 });
    expect(s.run.status.state).toBe('error');
    expect(s.run.status.step).toBe(7);
    expect(s.run.status.message).toMatch(/resumed from its last checkpoint/);
    expect(s.pending).toEqual({});
    expect(s.data.test.status).toBe('error');
    expect(isRunActive(s.run.status.state)).toBe(false);
  });

  it('leaves a finished run as it was', () => {
    const store = replay([trainState('training', 20), trainState('done', 20)]);
    store.getState().engineStopped({ verdict: 'silent', silentMs: 30_000 });
    expect(store.getState().run.status.state).toBe('done');
  });

  it('a restart starts from nothing, as after a reload, keeping the log; the new worker restores runs and data', () => {
    const store = replay([
      { type: 'ready', backend: backendInfo, hardwareConcurrency: 2 },
      { type: 'dataset', summary: summary('train', 8), reason: 'loaded' },
      { type: 'runs', runs: [savedRun('running')] },
      { type: 'log', level: 'info', message: 'hello' },
      { type: 'error', command: 'rerank', message: 'no model' },
      trainState('training', 7),
    ]);
    store.getState().engineStopped({ verdict: 'gone', silentMs: 25_000 });
    store.getState().engineRestarted();
    let s = store.getState();
    expect(s.engineDown).toBeNull();
    expect(s.backend).toBeNull();
    expect(s.run.status.state).toBe('idle');
    expect(s.savedRuns).toBeNull();
    expect(s.data.train.status).toBe('empty');
    expect(s.errors).toEqual([]);
    expect(s.log.map((l) => l.message)).toEqual(['hello']);
    store.getState().eventReceived({ type: 'ready', backend: backendInfo, hardwareConcurrency: 2 });
    store.getState().eventReceived({ type: 'dataset', summary: summary('train', 8), reason: 'loaded' });
    store.getState().eventReceived({ type: 'runs', runs: [savedRun('interrupted')] });
    s = store.getState();
    expect(s.data.train.status).toBe('ready');
    expect(s.savedRuns?.[0].state).toBe('interrupted');
  });
});
