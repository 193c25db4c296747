import type { TrainingView } from '../data/types.ts';
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { type EnergyHistogram, energyHistogram } from '../metrics/histogram.ts';
import { type EvalSummary, type ScoredGroup, evaluateGroups } from '../metrics/summary.ts';
import { type NCurveRow, bestOfNCurve } from '../metrics/ncurve.ts';
import { type ScoreOptions, scoreCandidates } from './scoring.ts';
import { candidateIds } from './stepBatch.ts';

export interface Evaluation {
  summary: EvalSummary;
  curve: NCurveRow[];
  histogram: EnergyHistogram;
  /** The scored groups, for Inspect. */
  groups: ScoredGroup[];
}

export const CURVE_SUBSETS = 64;
export const HISTOGRAM_BINS = 30;

/** Scores the given groups and computes every validation figure on them. */
export async function evaluateModel(
  cfg: ModelConfig,
  params: ParamTensors,
  view: TrainingView,
  answers: ReadonlyArray<string | null>,
  groups: ArrayLike<number>,
  seed: number,
  scoring: Omit<ScoreOptions, 'budgetBytes'> = {},
): Promise<Evaluation> {
  const candidates: Uint16Array[] = [];
  for (let k = 0; k < groups.length; k++) {
    for (let i = view.groupStart[groups[k]]; i < view.groupStart[groups[k] + 1]; i++) candidates.push(candidateIds(view, i, cfg.maxLen));
  }
  const e = await scoreCandidates(cfg, params, candidates, scoring);
  const scored: ScoredGroup[] = [];
  let offset = 0;
  for (let k = 0; k < groups.length; k++) {
    const start = view.groupStart[groups[k]];
    const n = view.groupStart[groups[k] + 1] - start;
    scored.push({
      energies: e.subarray(offset, offset + n),
      labels: view.labels.subarray(start, start + n),
      answers: answers.slice(start, start + n),
    });
    offset += n;
  }
  return {
    summary: evaluateGroups(scored),
    curve: bestOfNCurve(scored, { seed, subsetsPerN: CURVE_SUBSETS }),
    histogram: energyHistogram(scored, HISTOGRAM_BINS),
    groups: scored,
  };
}
