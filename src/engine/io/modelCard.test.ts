import { describe, expect, it } from 'vitest';
import { type ScoredGroup, evaluateGroups } from '../metrics/summary.ts';
import type { SourceRow } from '../metrics/selectionTypes.ts';
import { makeConfig } from '../model/config.ts';
import { DEFAULT_TRAIN_SETTINGS } from '../train/settings.ts';
import { selectionFixture } from '../testing/selectionFixture.ts';
import { type ModelCardInput, modelCard } from './modelCard.ts';

const groups: ScoredGroup[] = [{ energies: [0.1, 0.5], labels: [1, 0], answers: ['1', '2'] }];
const sources: SourceRow[] = [
  {
    source: 'gpt-4o',
    candidates: 40,
    shareCorrect: 0.8,
    pickedShare: 0.3,
    chanceShare: 0.25,
    earnedShare: 0.4,
    picks: 12,
    pairwise: 0.7,
    meanEnergyCorrect: -1,
    meanEnergyIncorrect: 0.5,
    flagged: false,
  },
  {
    source: 'llama|3',
    candidates: 40,
    shareCorrect: 0.2,
    pickedShare: 0.6,
    chanceShare: 0.25,
    earnedShare: 0.1,
    picks: 24,
    pairwise: NaN,
    meanEnergyCorrect: 0.1,
    meanEnergyIncorrect: 0.2,
    flagged: true,
  },
];

const input = (over: Partial<ModelCardInput> = {}): ModelCardInput => ({
  weightsFile: 'eorm-best-d64-l2-len256.safetensors',
  description: 'best: epoch 3, step 120, val Best-of-N 0.707',
  source: 'trained',
  config: makeConfig({ dModel: 64, maxLen: 256 }),
  params: 3_300_000,
  training: {
    dataset: 'gsm8k.jsonl',
    trainGroups: 412,
    valGroups: 132,
    split: { seed: 42, trainFraction: 0.8, dataset: 'sha256:0123abcd' },
    settings: { ...DEFAULT_TRAIN_SETTINGS, bestMetric: 'weightedVote' },
    epoch: 3,
    step: 120,
  },
  evaluations: [{ set: 'val', dataName: 'gsm8k.jsonl', summary: evaluateGroups(groups), selection: selectionFixture(), sources, allQuestionsAccuracy: 0.61 }],
  exportedAt: '2026-11-25T00:00:00.000Z',
  ...over,
});

describe('modelCard', () => {
  const card = modelCard(input());

  it('names the data by identity and counts, and the settings', () => {
    expect(card).toContain('# Model card: eorm-best-d64-l2-len256.safetensors');
    expect(card).toContain('sha256:0123abcd');
    expect(card).toContain('412 for training, 132 held out');
    expect(card).toMatch(/\| bestMetric \| weightedVote \|/);
    expect(card).toContain('seed 42, train fraction 0.8');
  });

  it('has the selection rules with their intervals, the recommendation and the paired comparison', () => {
    expect(card).toContain('Use the energy-weighted vote: it beats majority vote by 7.9 points');
    expect(card).toMatch(/\| Energy-weighted vote \(fitted T\) \| 81\.1% \| 74\.0% – 87\.0% \|/);
    expect(card).toMatch(/\| Majority vote \| 73\.2% \| 66\.0% – 80\.0% \|/);
    expect(card).toContain('+7.9 points (95% interval 3.0 to 13.0, p = 0.008 adjusted (21 questions differ)): a real difference');
    expect(card).toContain('not distinguishable from zero');
    expect(card).toContain('1000 resamples, seed 42');
    expect(card).toContain('Over all held-out questions (not only those with both labels): 61.0%');
    expect(card).toContain('11 final answers have candidates labelled both correct and incorrect');
  });

  it('reports calibration out of fold and of the raw shares, with the 10 bins', () => {
    expect(card).toContain('Temperature T = 0.420 (fitted on 132 held-out questions; every figure that depends on it is out of fold (5 folds))');
    expect(card).toContain(
      "Calibration k-fold:5: expected calibration error of the picked answer's probability 0.040 (out of fold), Brier 0.150, log loss 0.460",
    );
    expect(card).toContain('the raw shares at T = 1: ECE 0.110, Brier 0.190, log loss 0.900');
    expect(card.split('\n').filter((l) => /^\| 0\.\d–/.test(l) || /^\| 0\.9–1\.0/.test(l))).toHaveLength(10);
  });

  it('has the per-source table, flags a shortcut and escapes table characters', () => {
    expect(card).toContain('## Per-source audit (validation)');
    expect(card).toContain('| llama\\|3 ⚠ | 40 | 20.0% | 60.0% | 25.0% | 10.0% | – |');
    expect(card).toContain('picked far above its correctness: llama|3');
  });

  it('says what was not tested', () => {
    expect(card).toContain('## Limits');
    expect(card).toContain('Trained on gsm8k.jsonl; every figure above is on validation (1 groups of gsm8k.jsonl)');
    expect(card).toContain('cut at 256 tokens');
    expect(card).not.toContain('No per-source audit');
    expect(modelCard(input({ evaluations: [] }))).toContain('no evaluation (none was run before export)');
  });

  it('without a selection report or training record it still writes what it knows', () => {
    const bare = modelCard(input({ source: 'imported', training: {}, evaluations: [{ set: 'test', dataName: 't.jsonl', summary: evaluateGroups(groups) }] }));
    expect(bare).toContain('records no training data');
    expect(bare).toContain('No intervals: this evaluation has no selection report');
    expect(bare).toContain('No per-source audit');
  });
});
