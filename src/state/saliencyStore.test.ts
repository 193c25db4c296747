import { describe, expect, it } from 'vitest';
import type { CandidateSaliency } from '../engine/train/explainEnergy.ts';
import { createEngineStore } from './engineStore.ts';

const result: CandidateSaliency = {
  energy: -1.5,
  pieces: [
    { text: '[CLS]', part: 'cls', score: 0.3, shade: 1, tokens: 1 },
    { text: 'Q', part: 'question', score: -0.1, shade: -0.5, tokens: 1 },
    { text: '[SEP]', part: 'sep', score: 0, shade: 0, tokens: 1 },
    { text: ' yes', part: 'answer', score: 0.2, shade: 1, tokens: 1 },
  ],
  scale: 0.2,
  tokens: 4,
  truncated: false,
};

describe('the store\'s saliency', () => {
  it('holds the request while it computes, then its answer; an answer to an earlier request is dropped', () => {
    const store = createEngineStore();
    const { commandSent, eventReceived } = store.getState();
    commandSent({ type: 'saliency', target: { view: 'rerank', index: 2, id: 1 }, question: 'Q', text: 'yes' });
    commandSent({ type: 'saliency', target: { view: 'rerank', index: 0, id: 2 }, question: 'Q', text: 'no' });
    expect(store.getState().saliency).toMatchObject({ target: { index: 0, id: 2 }, text: 'no', result: null });
    expect(store.getState().pending.saliency).toBe(true);

    eventReceived({ type: 'saliency', target: { view: 'rerank', index: 2, id: 1 }, modelSlot: 'latest', ...result });
    expect(store.getState().saliency?.result).toBeNull();
    expect(store.getState().pending.saliency).toBe(true);

    eventReceived({ type: 'saliency', target: { view: 'rerank', index: 0, id: 2 }, modelSlot: 'latest', ...result });
    expect(store.getState().saliency?.result).toMatchObject({ energy: -1.5, model: { slot: 'latest' } });
    expect(store.getState().saliency?.result?.pieces).toHaveLength(4);
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
