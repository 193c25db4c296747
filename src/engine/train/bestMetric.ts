/**
 * Which validation makes the best checkpoint: the figure the user picked (settings.bestMetric), higher
 * better except the BT loss. A figure that is not a number (NaN: e.g. pairwise with no group holding both
 * labels) never makes a checkpoint the best, so a run whose figure is undefined keeps no best model by it.
 */
import type { SelectionReport } from '../metrics/selectionTypes.ts';
import type { EvalSummary } from '../metrics/summary.ts';
import { settingsBestMetric } from '../data/olderRecords.ts';
import { scorerOf } from '../metrics/ruleScores.ts';
import { BEST_METRIC_RULES, PRIMARY_VERIFIER_RULE, RULE_BY_ID, type SelectionRule, UNFITTED_BEST_METRIC } from '../metrics/rules.ts';
import type { BestMetric, TrainSettings } from './settings.ts';

/** What an evaluation offers to choose by (score/evaluation.ts's Evaluation has both). */
export interface MetricSource {
  summary: EvalSummary;
  selection?: SelectionReport | null;
}

/** The figures offered, in the settings' order: the rules rules.json names a best metric, then two of the summary's. */
export const BEST_METRIC_LABELS: Partial<Record<BestMetric, string>> = {
  ...Object.fromEntries(BEST_METRIC_RULES.map((r) => [r, RULE_BY_ID[r].bestMetric])),
  pairwise: 'pairwise accuracy',
  btLoss: 'BT loss (lower is better)',
};

/** The run's metric (older records: data/olderRecords.ts). */
export const bestMetricOf = (settings: Pick<TrainSettings, 'bestMetric'>): BestMetric => settingsBestMetric<BestMetric>(settings, UNFITTED_BEST_METRIC);

export const lowerIsBetter = (metric: BestMetric): boolean => metric === 'btLoss';

/** A rule's figure in the summary (ruleScores.ts says which rules have one); NaN where it has none. */
const summaryFigure = (e: MetricSource, rule: SelectionRule): number => scorerOf(rule).summary?.(e.summary) ?? NaN;

/**
 * The figure of `e` that `metric` names. An unfitted rule's is the summary's. The primary verifier rule's
 * (the selector) is its out-of-fold accuracy, the unfitted best metric's (Best-of-N) while it cannot be
 * fitted. Another fitted rule's (the vote with the temperature cross-fitted over the validation questions)
 * is the selection report's; an evaluation without one (none could be computed) falls back to the summary's.
 */
export function metricValue(e: MetricSource, metric: BestMetric): number {
  if (metric === 'pairwise') return e.summary.pairwise;
  if (metric === 'btLoss') return e.summary.btLoss;
  if (!RULE_BY_ID[metric].fitted) return summaryFigure(e, metric);
  const reported = e.selection?.rules[metric]?.accuracy;
  if (metric === PRIMARY_VERIFIER_RULE) {
    // Not fitted (too few held-out questions): NaN, which would keep no best model at all.
    return Number.isFinite(reported ?? NaN) ? (reported as number) : summaryFigure(e, UNFITTED_BEST_METRIC);
  }
  return reported ?? summaryFigure(e, metric);
}

/** `value` beats the best so far (null: none yet). Equal is not better: the earlier checkpoint stays. */
export function isBetter(value: number, best: number | null, metric: BestMetric): boolean {
  if (Number.isNaN(value)) return false;
  if (best === null || Number.isNaN(best)) return true;
  return lowerIsBetter(metric) ? value < best : value > best;
}

/** The selection report of an evaluation, or null when it has none. */
export const selectionOf = (e: { selection?: SelectionReport | null }): SelectionReport | null => e.selection ?? null;
