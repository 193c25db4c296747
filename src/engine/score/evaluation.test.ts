import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitGroups } from '../data/split.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { allQuestionsFigures, hasBothLabels, unanimousQuestions } from '../metrics/heldOut.ts';
import { SELECTION_RULES, selectionReport } from '../metrics/selection.ts';
import { evaluateGroups } from '../metrics/summary.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import { evaluateModel } from './evaluation.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 1, maxLen: 64, dropout: 0, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 30, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('evaluateModel: the selection report', () => {
  it('the calibration never sees training groups: cross-fitted over the evaluated questions alone, scored in one pass', async () => {
    // Enough held-out questions to cross-fit (at least 20).
    const big = syntheticView({ groups: 120, groupSize: 4, vocab: 63, marker: 7, seed: 5, cls: 63 });
    const bigSplit = splitGroups(big.view, { seed: 1 });
    expect(bigSplit.val.length).toBeGreaterThanOrEqual(20);
    const params = initParams(cfg, 4);
    const progress: Array<[number, number]> = [];
    const e = await evaluateModel(cfg, params, big.view, big.answers, bigSplit.val, 9, {
      onProgress: (d, t) => progress.push([d, t]),
      profile: activeProfile(),
    });
    const valCandidates = 4 * bigSplit.val.length;
    expect(progress.at(-1)).toEqual([valCandidates, valCandidates]);
    expect(e.selection.groups).toBe(bigSplit.val.length);
    expect(e.selection.calibration.method).toBe('k-fold:5');
    expect(e.selection.calibration.questions).toBe(bigSplit.val.length);
    expect(e.selection.temperatureSource).toBe(`fitted on ${bigSplit.val.length} held-out questions; every figure that depends on it is out of fold (5 folds)`);
    // A function of the evaluated questions' energies alone (the length check aside: lengthBias.ts).
    const { allQuestions, length: _length, singleLabel: _singleLabel, ...report } = e.selection;
    const alone = selectionReport(e.groups.filter(hasBothLabels), { seed: 9 });
    // The map adds what a unanimous pick is worth, over every evaluated question.
    expect(report).toEqual({ ...alone, probabilityMap: { ...alone.probabilityMap, unanimous: unanimousQuestions(e.groups) } });
    expect(allQuestions).toEqual(allQuestionsFigures(e.groups, report, hasBothLabels));
    // The summary's figures follow the same tie rule.
    expect(e.selection.rules.majority.accuracy).toBe(e.summary.baselines.majorityVote);
    expect(e.selection.rules.bestOfN.accuracy).toBe(e.summary.bestOfN);
    expect(e.selection.bootstrap).toEqual({ resamples: 1000, seed: 9 });
    disposeParams(params);
  });

  it('with too few held-out questions: calibration "none: …", T = 1, the reason', async () => {
    const params = initParams(cfg, 4);
    const e = await evaluateModel(cfg, params, data.view, data.answers, split.val, 9, { profile: activeProfile() });
    const reason = `only ${split.val.length} held-out questions (at least 20 are needed to calibrate out of fold)`;
    expect(e.selection.temperature).toBe(1);
    expect(e.selection.calibration.method).toBe(`none: ${reason}`);
    expect(e.selection.temperatureSource).toBe(`not fitted (T = 1): ${reason}`);
    disposeParams(params);
  });
});

describe('evaluateModel: questions with both labels and all questions', () => {
  it('reports the summary, curve and rules over the questions with both labels, and every rule over all of them', async () => {
    // The first two validation groups made single-label (all correct, all wrong), as the 'all' split holds them.
    const labels = Uint8Array.from(data.view.labels);
    const [g0, g1] = [split.val[0], split.val[1]];
    for (let i = data.view.groupStart[g0]; i < data.view.groupStart[g0 + 1]; i++) labels[i] = 1;
    for (let i = data.view.groupStart[g1]; i < data.view.groupStart[g1 + 1]; i++) labels[i] = 0;
    const view = { ...data.view, labels };
    const params = initParams(cfg, 4);
    const e = await evaluateModel(cfg, params, view, data.answers, split.val, 9, { profile: activeProfile() });
    const both = e.groups.filter(hasBothLabels);
    expect(e.groups).toHaveLength(split.val.length); // Inspect browses every evaluated question
    expect(both).toHaveLength(split.val.length - 2);
    expect(e.summary).toEqual(evaluateGroups(both));
    expect(e.selection.groups).toBe(both.length);
    const { allQuestions, length: _length, singleLabel: _singleLabel, ...report } = e.selection;
    const all = allQuestionsFigures(e.groups, report, hasBothLabels);
    expect(allQuestions).toEqual(all);
    expect(all.groups).toBe(split.val.length);
    expect(e.allQuestionsAccuracy).toBe(all.rules[e.selection.recommended.rule]);
    // The single-label questions: every rule scores 1 on the all-correct one, 0 on the all-wrong one.
    for (const rule of SELECTION_RULES) {
      if (rule === 'selector') continue; // too few questions to fit: NaN
      expect(all.rules[rule] * all.groups, rule).toBeCloseTo(e.selection.rules[rule].accuracy * both.length + 1, 9);
    }
    expect(e.selection.rules.oracle.accuracy).toBe(1);
    expect(all.rules.oracle).toBeCloseTo((split.val.length - 1) / split.val.length, 15);
    disposeParams(params);
  });

  it('a test file: every figure over every question, no separate allQuestions', async () => {
    const labels = Uint8Array.from(data.view.labels);
    const g0 = split.val[0];
    for (let i = data.view.groupStart[g0]; i < data.view.groupStart[g0 + 1]; i++) labels[i] = 0;
    const params = initParams(cfg, 4);
    const e = await evaluateModel(cfg, params, { ...data.view, labels }, data.answers, split.val, 9, { profile: activeProfile() }, 'allQuestions');
    expect(e.summary).toEqual(evaluateGroups(e.groups));
    expect(e.summary.nGroups).toBe(split.val.length);
    expect(e.selection.allQuestions).toBeUndefined();
    expect(e.selection.groups).toBe(split.val.length);
    expect(e.allQuestionsAccuracy).toBeCloseTo(e.selection.rules[e.selection.recommended.rule].accuracy, 15);
    disposeParams(params);
  });
});
