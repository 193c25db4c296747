import { describe, expect, it } from 'vitest';
import { type ScoredGroup, evaluateGroups } from '../metrics/summary.ts';
import { selectionFixture } from '../testing/selectionFixture.ts';
import { bestMetricOf, isBetter, metricValue } from './bestMetric.ts';

const summary = evaluateGroups([{ energies: [0.1, 0.5], labels: [1, 0], answers: ['1', '2'] }] as ScoredGroup[]);

describe('bestMetric', () => {
  it('reads the chosen figure: the fitted vote from the selection report, else the unfitted baseline', () => {
    expect(metricValue({ summary }, 'bestOfN')).toBe(summary.bestOfN);
    expect(metricValue({ summary }, 'pairwise')).toBe(summary.pairwise);
    expect(metricValue({ summary }, 'btLoss')).toBe(summary.btLoss);
    expect(metricValue({ summary, selection: selectionFixture() }, 'weightedVote')).toBe(0.811);
    expect(metricValue({ summary, selection: null }, 'weightedVote')).toBe(summary.baselines.weightedVote);
  });

  it("reads the selector's out-of-fold accuracy, Best-of-N's while it is not fitted", () => {
    const fitted = selectionFixture();
    expect(metricValue({ summary, selection: fitted }, 'selector')).toBe(fitted.rules.selector.accuracy);
    const unfitted = { ...fitted, rules: { ...fitted.rules, selector: { ...fitted.rules.selector, accuracy: NaN } } };
    expect(metricValue({ summary, selection: unfitted }, 'selector')).toBe(summary.bestOfN);
    expect(metricValue({ summary, selection: null }, 'selector')).toBe(summary.bestOfN);
  });

  it('higher is better, except the BT loss; equal keeps the earlier; NaN never wins', () => {
    expect(isBetter(0.7, null, 'bestOfN')).toBe(true);
    expect(isBetter(0.7, 0.6, 'bestOfN')).toBe(true);
    expect(isBetter(0.6, 0.6, 'pairwise')).toBe(false);
    expect(isBetter(0.5, 0.6, 'btLoss')).toBe(true);
    expect(isBetter(0.7, 0.6, 'btLoss')).toBe(false);
    expect(isBetter(NaN, null, 'pairwise')).toBe(false);
    expect(isBetter(0.1, NaN, 'pairwise')).toBe(true);
  });

  it('runs recorded before the setting chose by Best-of-N', () => {
    expect(bestMetricOf({})).toBe('bestOfN');
    expect(bestMetricOf({ bestMetric: 'btLoss' })).toBe('btLoss');
  });
});
