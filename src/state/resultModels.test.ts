import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import type { ModelInfo, ModelSlot } from '../worker/protocols/models.ts';
import { firstGroupToShow, isStale } from './engineState.ts';
import type { createEngineStore } from './engineStore.ts';
import { replay, report, trainState } from './testing/storeEvents.ts';

describe('engine store: results and the model they came from', () => {
  const info = (slot: ModelSlot, description: string, step: number | null = null, revision = 1): ModelInfo => ({
    slot,
    source: slot === 'imported' ? 'imported' : 'trained',
    params: 123,
    model: { dModel: 64, nHeads: 4, nLayers: 2, ffnDim: 256, dropout: 0.2, maxLen: 256, positional: 'none' },
    description,
    epoch: null,
    step,
    valBestOfN: null,
    warnings: [],
    revision,
  });
  const models = (active: ModelSlot, ...available: ModelInfo[]): WorkerEvent => ({ type: 'models', active, available });
  const inspected: WorkerEvent = { type: 'inspectGroup', set: 'test', filter: 'all', position: 0, matching: 3, groupIndex: 1, question: 'q', candidates: [] };
  const reranked = (slot: ModelSlot): WorkerEvent => ({
    type: 'reranked',
    question: 'q',
    candidates: [],
    modelSlot: slot,
    answers: [],
    temperature: 1,
    temperatureSource: 'T = 1',
  });
  const evaluated = (slot: ModelSlot): WorkerEvent => ({ type: 'evaluation', report: report({ set: 'test', epoch: 0, origin: 'request', modelSlot: slot }) });

  function staleness(store: ReturnType<typeof createEngineStore>) {
    const s = store.getState();
    return [
      isStale(s.inspect!.model!, s.models.available),
      isStale(s.rerank!.model, s.models.available),
      isStale(s.latestEval.test!.model, s.models.available),
    ];
  }

  it('tags Inspect, Rerank and requested evaluations with their model, stale once another file is imported into its slot', () => {
    const store = replay([models('imported', info('imported', 'a.safetensors')), inspected, reranked('imported'), evaluated('imported')]);
    expect(store.getState().inspect!.model!.slot).toBe('imported');
    expect(staleness(store)).toEqual([false, false, false]);
    // Selecting another model leaves them valid: they still describe the imported one, and say so.
    store.getState().eventReceived(models('latest', info('imported', 'a.safetensors'), info('latest', 'epoch 1', 10)));
    expect(staleness(store)).toEqual([false, false, false]);
    store.getState().eventReceived(models('imported', info('imported', 'b.safetensors'), info('latest', 'epoch 1', 10)));
    expect(staleness(store)).toEqual([true, true, true]);
  });

  it('the same file imported again is another model: its revision tells them apart', () => {
    const store = replay([models('imported', info('imported', 'a.safetensors', null, 1)), inspected, reranked('imported'), evaluated('imported')]);
    expect(staleness(store)).toEqual([false, false, false]);
    store.getState().eventReceived(models('imported', info('imported', 'a.safetensors', null, 2)));
    expect(staleness(store)).toEqual([true, true, true]);
  });

  it('a new best checkpoint makes results of the best model stale; a new run those of the trained models', () => {
    const trained = [info('latest', 'epoch 1', 10), info('best', 'best: epoch 1', 10)];
    const store = replay([models('best', ...trained), inspected, reranked('best'), evaluated('best')]);
    store.getState().eventReceived({ type: 'checkpoint', slot: 'best', epoch: 2, step: 20, valBestOfN: 0.7 });
    store.getState().eventReceived(models('best', info('latest', 'epoch 2', 20), info('best', 'best: epoch 2', 20)));
    expect(staleness(store)).toEqual([true, true, true]);

    const again = replay([models('latest', ...trained), inspected, reranked('latest'), evaluated('latest')]);
    again.getState().eventReceived(models('latest', info('latest', 'training…')));
    expect(isStale(again.getState().rerank!.model, again.getState().models.available)).toBe(true);
    expect(isStale(again.getState().latestEval.test!.model, again.getState().models.available)).toBe(true);
  });
});

describe('engine store: Inspect after an evaluation', () => {
  const info = (slot: ModelSlot, step: number | null = null): ModelInfo => ({
    slot,
    source: slot === 'imported' ? 'imported' : 'trained',
    params: 123,
    model: { dModel: 64, nHeads: 4, nLayers: 2, ffnDim: 256, dropout: 0.2, maxLen: 256, positional: 'none' },
    description: slot,
    epoch: null,
    step,
    valBestOfN: null,
    warnings: [],
    revision: 1,
  });
  const models = (active: ModelSlot, ...available: ModelInfo[]): WorkerEvent => ({ type: 'models', active, available });
  const evaluated = (set: 'val' | 'test', slot: ModelSlot, origin: 'run' | 'request' = 'request'): WorkerEvent => ({
    type: 'evaluation',
    report: report({ set, epoch: 0, origin, modelSlot: slot }),
  });

  it('asks for the first group of the set Inspect shows once an evaluation of it by the selected model arrives, and only until one is shown', () => {
    const store = replay([models('imported', info('imported')), evaluated('test', 'imported')]);
    const s = () => store.getState();
    expect(firstGroupToShow(s(), 'test')).toBe(s().latestEval.test!.report);
    // Inspect is on another set, which nothing evaluated yet.
    expect(firstGroupToShow(s(), 'val')).toBeNull();
    s().commandSent({ type: 'inspect', set: 'test', filter: 'all', position: 0 });
    expect(firstGroupToShow(s(), 'test')).toBeNull();
    s().eventReceived({ type: 'inspectGroup', set: 'test', filter: 'all', position: 0, matching: 3, groupIndex: 1, question: 'q', candidates: [] });
    expect(firstGroupToShow(s(), 'test')).toBeNull();
  });

  it('not for an evaluation of a model other than the selected one, nor while a run trains (then once it is over)', () => {
    const other = replay([models('latest', info('imported'), info('latest', 10)), evaluated('test', 'imported')]);
    expect(firstGroupToShow(other.getState(), 'test')).toBeNull();
    const run = replay([
      models('latest', info('latest', 0)),
      trainState('training', 3),
      evaluated('val', 'latest', 'run'),
      models('latest', info('latest', 3)),
    ]);
    expect(firstGroupToShow(run.getState(), 'val')).toBeNull();
    run.getState().eventReceived(trainState('done', 20));
    expect(firstGroupToShow(run.getState(), 'val')).toBe(run.getState().latestEval.val!.report);
  });
});
