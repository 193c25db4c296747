/**
 * Which validation makes the best checkpoint: the figure the user picked (settings.bestMetric), higher
 * better except the BT loss. A figure that is not a number (NaN: e.g. pairwise with no group holding both
 * labels) never makes a checkpoint the best, so a run whose figure is undefined keeps no best model by it.
 */
import type { SelectionReport } from '../metrics/selectionTypes.ts';
import type { EvalSummary } from '../metrics/summary.ts';
import { settingsBestMetric } from '../data/olderRecords.ts';
import type { BestMetric, TrainSettings } from './settings.ts';

/** What an evaluation offers to choose by (score/evaluation.ts's Evaluation has both). */
export interface MetricSource {
  summary: EvalSummary;
  selection?: SelectionReport | null;
}

export const BEST_METRIC_LABELS: Record<BestMetric, string> = {
  selector: 'learned selector (Best-of-N until it can be fitted)',
  bestOfN: 'Best-of-N',
  weightedVote: 'weighted vote (fitted T)',
  pairwise: 'pairwise accuracy',
  btLoss: 'BT loss (lower is better)',
};

/** The run's metric (older records: data/olderRecords.ts). */
export const bestMetricOf = (settings: Pick<TrainSettings, 'bestMetric'>): BestMetric => settingsBestMetric(settings);

export const lowerIsBetter = (metric: BestMetric): boolean => metric === 'btLoss';

/**
 * The figure of `e` that `metric` names. The selector's is its out-of-fold accuracy, Best-of-N's while it
 * cannot be fitted. The weighted vote is the one with the temperature cross-fitted
 * over the validation questions (out of fold); an evaluation without a selection report (none could be computed) falls back to the
 * unfitted vote of the summary's baselines.
 */
export function metricValue(e: MetricSource, metric: BestMetric): number {
  switch (metric) {
    case 'selector': {
      // Not fitted (too few held-out questions): NaN, which would keep no best model at all.
      const selector = e.selection?.rules.selector?.accuracy ?? NaN;
      return Number.isFinite(selector) ? selector : e.summary.bestOfN;
    }
    case 'bestOfN':
      return e.summary.bestOfN;
    case 'weightedVote':
      return e.selection?.rules.weightedVote.accuracy ?? e.summary.baselines.weightedVote;
    case 'pairwise':
      return e.summary.pairwise;
    case 'btLoss':
      return e.summary.btLoss;
  }
}

/** `value` beats the best so far (null: none yet). Equal is not better: the earlier checkpoint stays. */
export function isBetter(value: number, best: number | null, metric: BestMetric): boolean {
  if (Number.isNaN(value)) return false;
  if (best === null || Number.isNaN(best)) return true;
  return lowerIsBetter(metric) ? value < best : value > best;
}

/** The selection report of an evaluation, or null when it has none. */
export const selectionOf = (e: { selection?: SelectionReport | null }): SelectionReport | null => e.selection ?? null;
