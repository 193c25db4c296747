import { describe, expect, it } from 'vitest';
import type { CandidateSaliency } from '../engine/score/explainEnergy.ts';
import { createEngineStore } from './engineStore.ts';

const step = { start: 0, end: 3, text: 'yes', delta: -0.2, shade: 1 };
const result: CandidateSaliency = {
  energy: -1.5,
  steps: [step],
  distrusted: 0,
  focus: { start: 0, end: 3, step: null },
  tokens: [step],
  scales: { steps: 0.2, tokens: 0.2 },
  variants: 2,
  capped: [],
  tokensRead: 4,
  answerCharsRead: 3,
  truncated: false,
};

describe("the store's saliency", () => {
  it('holds the request while it computes, then its answer; an answer to an earlier request is dropped', () => {
    const store = createEngineStore();
    const { commandSent, eventReceived } = store.getState();
    commandSent({ type: 'saliency', target: { view: 'rerank', index: 2, id: 1 }, question: 'Q', text: 'yes' });
    commandSent({ type: 'saliency', target: { view: 'rerank', index: 0, id: 2 }, question: 'Q', text: 'no' });
    expect(store.getState().saliency).toMatchObject({ target: { index: 0, id: 2 }, text: 'no', progress: null, result: null });
    expect(store.getState().pending.saliency).toBe(true);

    // Progress of the earlier request is dropped too; the current one's is kept until its answer comes.
    eventReceived({ type: 'saliencyProgress', target: { view: 'rerank', index: 2, id: 1 }, done: 2, total: 3 });
    expect(store.getState().saliency?.progress).toBeNull();
    eventReceived({ type: 'saliencyProgress', target: { view: 'rerank', index: 0, id: 2 }, done: 1, total: 3 });
    expect(store.getState().saliency?.progress).toEqual({ done: 1, total: 3 });

    eventReceived({ type: 'saliency', target: { view: 'rerank', index: 2, id: 1 }, modelSlot: 'latest', ...result });
    expect(store.getState().saliency?.result).toBeNull();
    expect(store.getState().pending.saliency).toBe(true);

    eventReceived({ type: 'saliency', target: { view: 'rerank', index: 0, id: 2 }, modelSlot: 'latest', ...result });
    expect(store.getState().saliency?.result).toMatchObject({ energy: -1.5, model: { slot: 'latest' } });
    expect(store.getState().saliency?.result?.steps).toEqual([step]);
    expect(store.getState().pending.saliency).toBe(false);
  });

  it('an error ends the wait', () => {
    const store = createEngineStore();
    store.getState().commandSent({ type: 'saliency', target: { view: 'inspect', index: 0, id: 3 }, question: 'Q', text: 'a' });
    store.getState().eventReceived({ type: 'error', command: 'saliency', message: 'No latest model' });
    expect(store.getState().pending.saliency).toBe(false);
    expect(store.getState().saliency?.result).toBeNull();
  });
});
