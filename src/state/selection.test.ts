import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import type { ModelInfo, ModelSlot } from '../worker/protocols/models.ts';
import { selectedModelEval } from './engineState.ts';
import { replay, report } from './testing/storeEvents.ts';
import { selectionFixture } from '../engine/testing/selectionFixture.ts';

const info = (slot: ModelSlot): ModelInfo => ({
  slot,
  source: 'trained',
  params: 1,
  model: { dModel: 64, nHeads: 4, nLayers: 2, ffnDim: 256, dropout: 0.2, maxLen: 256, positional: 'none' },
  description: slot,
  epoch: 1,
  step: 10,
  valBestOfN: 0.5,
  warnings: [],
  revision: 1,
});
const models = (active: ModelSlot): WorkerEvent => ({ type: 'models', active, available: [info('latest'), info('best')] });

describe('engine store: the selection report and the new events', () => {
  it('keeps the selection report of an evaluation as the worker sent it', () => {
    const selection = selectionFixture();
    const store = replay([models('latest'), { type: 'evaluation', report: report({ selection, allQuestionsAccuracy: 0.6 }) }]);
    const latest = selectedModelEval(store.getState())!;
    expect(latest.report.selection).toBe(selection);
    expect(latest.report.allQuestionsAccuracy).toBe(0.6);
  });

  it('the eval summary shows the latest evaluation of the selected model, of either set', () => {
    const store = replay([
      models('latest'),
      { type: 'evaluation', report: report({ set: 'val', selection: selectionFixture({ temperature: 0.5 }) }) },
      { type: 'evaluation', report: report({ set: 'test', origin: 'request', selection: selectionFixture({ temperature: 0.7 }) }) },
    ]);
    expect(selectedModelEval(store.getState())!.report.set).toBe('test');
    // Another model selected: none of these describes it.
    store.getState().eventReceived(models('best'));
    expect(selectedModelEval(store.getState())).toBeNull();
    store.getState().eventReceived({ type: 'evaluation', report: report({ set: 'val', origin: 'request', modelSlot: 'best' }) });
    expect(selectedModelEval(store.getState())!.report.modelSlot).toBe('best');
    expect(selectedModelEval(store.getState())!.report.selection).toBeUndefined();
  });

  it('a report recorded before selection reports (a resumed run) is still shown, without one', () => {
    const store = replay([models('latest'), { type: 'evaluation', report: report({}) }]);
    expect(selectedModelEval(store.getState())!.report.selection ?? null).toBeNull();
  });

  it('Rerank keeps the answers, their probabilities and the temperature as sent', () => {
    const answers = [
      { answer: '18', probability: 0.7, picked: true, candidates: [2, 0] },
      { answer: '26', probability: 0.3, picked: false, candidates: [1] },
    ];
    const store = replay([
      models('latest'),
      { type: 'reranked', question: 'q', candidates: [], modelSlot: 'latest', answers, temperature: 0.42, temperatureSource: 'fitted on 12 training groups' },
    ]);
    const view = store.getState().rerank!;
    expect(view.answers).toEqual(answers);
    expect(view.temperature).toBe(0.42);
    expect(view.temperatureSource).toBe('fitted on 12 training groups');
  });

  it('Export run waits for its file; a weights export does not end it', () => {
    const store = replay([]);
    store.getState().commandSent({ type: 'exportRun' });
    store.getState().commandSent({ type: 'export' });
    expect(store.getState().pending).toMatchObject({ exportRun: true, export: true });
    store.getState().eventReceived({ type: 'exported', fileName: 'w.safetensors', bytes: new ArrayBuffer(1), what: 'weights' });
    expect(store.getState().pending).toMatchObject({ exportRun: true, export: false });
    store.getState().eventReceived({ type: 'exported', fileName: 'run-metrics.jsonl', bytes: new ArrayBuffer(1), what: 'run' });
    expect(store.getState().pending.exportRun).toBe(false);
  });
});
