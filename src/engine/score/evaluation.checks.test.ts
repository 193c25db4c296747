import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrainingView } from '../data/types.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { lengthBias } from '../metrics/lengthBias/lengthBias.ts';
import { singleLabelNote } from '../metrics/singleLabel.ts';
import { evaluateModel } from './evaluation.ts';
import { activeProfile } from '../backend/profile.ts';

const SEP = 63;
const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 1, maxLen: 8, dropout: 0, clsId: SEP, sepId: SEP, padId: SEP });

/** 12 questions of 4 answers, [CLS] q q [SEP] answer: answers of 1 + ((g + i) mod 5) · 3 tokens, some longer than maxLen; half right. */
function view(): { view: TrainingView; answers: string[]; lengths: number[] } {
  const ids: number[][] = [];
  const labels: number[] = [];
  const lengths: number[] = [];
  for (let g = 0; g < 12; g++) {
    for (let i = 0; i < 4; i++) {
      const n = 1 + ((g + i) % 5) * 3;
      ids.push([SEP, 1 + g, 2, SEP, ...Array.from({ length: n }, (_, t) => 3 + ((g * 7 + i * 3 + t) % 50))]);
      labels.push(i % 2);
      lengths.push(n);
    }
  }
  const offsets = new Uint32Array(ids.length + 1);
  ids.forEach((c, k) => (offsets[k + 1] = offsets[k] + c.length));
  const tokens = new Uint16Array(offsets[ids.length]);
  ids.forEach((c, k) => tokens.set(c, offsets[k]));
  const groupStart = Uint32Array.from({ length: 13 }, (_, g) => 4 * g);
  return {
    view: { tokens: { maxLen: 64, tokens, offsets, truncated: 0 }, labels: Uint8Array.from(labels), groupStart },
    answers: labels.map((l, k) => (l ? 'right' : `wrong${k}`)),
    lengths,
  };
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('evaluateModel: the length check', () => {
  it("counts each answer's tokens before the model's maxLen cuts it and reports the length check of the evaluated groups", async () => {
    const d = view();
    const params = initParams(cfg, 4);
    const groups = Array.from({ length: 12 }, (_, g) => g);
    const e = await evaluateModel(cfg, params, d.view, d.answers, groups, 9, { profile: activeProfile() });
    disposeParams(params);
    expect(e.groups.flatMap((g) => Array.from(g.lengths ?? []))).toEqual(d.lengths);
    const length = e.selection.length;
    expect(length).toEqual(lengthBias(e.groups, { seed: 9, figuresOver: 'bothLabels' }));
    expect(length?.groups).toBe(12);
  });
});

describe('evaluateModel: the note on single-label questions', () => {
  it('a validation says what its single-label questions add to each rule', async () => {
    const d = view();
    // Question 0 all right with no final answer, question 1 all wrong.
    const labels = Uint8Array.from(d.view.labels, (l, i) => (i < 4 ? 1 : i < 8 ? 0 : l));
    const answers = d.answers.map((a, i) => (i < 4 ? null : a));
    const params = initParams(cfg, 4);
    const groups = Array.from({ length: 12 }, (_, g) => g);
    const val = await evaluateModel(cfg, params, { ...d.view, labels }, answers, groups, 9, { profile: activeProfile() });
    disposeParams(params);
    expect(val.selection.singleLabel).toEqual(singleLabelNote(val.groups));
    expect(val.selection.singleLabel).toMatchObject({ questions: 2, allRight: 1, allWrong: 1, allRightNoAnswer: 1 });
  });
});
