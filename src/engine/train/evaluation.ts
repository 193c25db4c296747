import type { TrainingView } from '../data/types.ts';
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { type EnergyHistogram, energyHistogram } from '../metrics/histogram.ts';
import type { EvalSummary, ScoredGroup } from '../metrics/summary.ts';
import type { NCurveRow } from '../metrics/ncurve.ts';
import type { SelectionReport, SourceRow } from '../metrics/selectionTypes.ts';
import { fitSubset } from '../metrics/temperature.ts';
import { type SourcedGroup, sourceAudit } from '../metrics/sources.ts';
import { type FiguresOver, evaluationFigures } from '../metrics/heldOut.ts';
import { answerTokens } from '../metrics/answerLength.ts';
import { withLengthCheck } from '../metrics/lengthBias.ts';
import { withSingleLabelNote } from '../metrics/singleLabel.ts';
import { type ScoreOptions, scoreCandidates } from './scoring.ts';
import { candidateIds } from './stepBatch.ts';

/**
 * Which questions each figure is over (FiguresOver, metrics/heldOut.ts). A validation's summary, N-curve and selection report are over the
 * held-out questions with both a correct and an incorrect candidate: where rules differ, and all that
 * validation held before the 'all' split, so a run's curves compare with older runs'; the summary's
 * Best-of-N is what the best checkpoint follows by default (defined whenever one such question is held
 * out; NaN, which never wins, when none is: then no figure tells checkpoints apart). Its selection report's
 * `allQuestions` gives each rule over every held-out question, what a user would report. A separate test
 * file is scored on every question for every figure, as test evaluations always were. `allQuestionsAccuracy`
 * (the recommended rule over every evaluated question), the energy histogram, the per-source audit and
 * Inspect's groups cover every evaluated question in both cases.
 */
export interface Evaluation {
  /** Over the questions `figuresOver` names. */
  summary: EvalSummary;
  /** Over the questions `figuresOver` names. */
  curve: NCurveRow[];
  /** Over every evaluated candidate. */
  histogram: EnergyHistogram;
  /** Every scored group (in the order of the evaluated groups), for Inspect. */
  groups: ScoredGroup[];
  /**
   * Selection rules with intervals over the questions `figuresOver` names, the weighted vote's temperature
   * (fitted on `fitOn`), calibration, the recommendation; with 'bothLabels', `allQuestions` over every one.
   */
  selection: SelectionReport;
  /** The recommended rule's accuracy over every evaluated question (NaN when there is none). */
  allQuestionsAccuracy: number;
  /** The per-source audit (sources.ts) over every evaluated question; [] when the lines name no source or the view does not carry them. */
  sources: SourceRow[];
}

export const CURVE_SUBSETS = 64;
export const HISTOGRAM_BINS = 30;
/**
 * Training groups scored to fit the vote's temperature (one number): a seeded subset this large bounds the
 * extra forward passes of a validation (at 256 the sample's validation, and so Start → first step, doubled).
 */
export const FIT_MAX_GROUPS = 64;

/** Training-split groups to fit the weighted vote's temperature on (scored with the same weights). */
export interface TemperatureFitData {
  view: TrainingView;
  answers: ReadonlyArray<string | null>;
  groups: ArrayLike<number>;
}

/** The training split of loaded data, to fit on; null when none is loaded. */
export function trainingSplitOf(data: { view: TrainingView; answers: ReadonlyArray<string | null>; split: { train: ArrayLike<number> } } | undefined): TemperatureFitData | null {
  return data ? { view: data.view, answers: data.answers, groups: data.split.train } : null;
}

/** A seeded subset of at most FIT_MAX_GROUPS of the training groups, scored (in a pass of its own: the progress reported is the evaluated set's). */
async function scoreFitGroups(cfg: ModelConfig, params: ParamTensors, fit: TemperatureFitData, seed: number, scoring: Omit<ScoreOptions, 'budgetBytes'>): Promise<ScoredGroup[]> {
  const { view, answers } = fit;
  const groups = fitSubset(fit.groups, seed, FIT_MAX_GROUPS);
  if (groups.length === 0) return [];
  const candidates: Uint16Array[] = [];
  for (const g of groups) for (let i = view.groupStart[g]; i < view.groupStart[g + 1]; i++) candidates.push(candidateIds(view, i, cfg.maxLen));
  const e = await scoreCandidates(cfg, params, candidates, { ...scoring, onProgress: undefined });
  const out: ScoredGroup[] = [];
  let offset = 0;
  for (const g of groups) {
    const start = view.groupStart[g];
    const n = view.groupStart[g + 1] - start;
    out.push({ energies: e.subarray(offset, offset + n), labels: view.labels.subarray(start, start + n), answers: answers.slice(start, start + n) });
    offset += n;
  }
  return out;
}

/**
 * Scores the given groups and computes every figure on them (which questions each is over: FiguresOver).
 * `fitOn`: training groups (never the evaluated ones) whose energies fit the weighted vote's temperature, a
 * seeded subset of at most FIT_MAX_GROUPS scored with the same weights; null: T = 1. `figuresOver`:
 * 'bothLabels' for a validation, 'allQuestions' for a test file.
 */
export async function evaluateModel(
  cfg: ModelConfig,
  params: ParamTensors,
  view: TrainingView,
  answers: ReadonlyArray<string | null>,
  groups: ArrayLike<number>,
  seed: number,
  scoring: Omit<ScoreOptions, 'budgetBytes'> = {},
  fitOn: TemperatureFitData | null = null,
  figuresOver: FiguresOver = 'bothLabels',
): Promise<Evaluation> {
  const candidates: Uint16Array[] = [];
  for (let k = 0; k < groups.length; k++) {
    for (let i = view.groupStart[groups[k]]; i < view.groupStart[groups[k] + 1]; i++) candidates.push(candidateIds(view, i, cfg.maxLen));
  }
  const e = await scoreCandidates(cfg, params, candidates, scoring);
  const fitScored = fitOn ? await scoreFitGroups(cfg, params, fitOn, seed, scoring) : null;
  const scored: ScoredGroup[] = [];
  const sourced: SourcedGroup[] = [];
  let offset = 0;
  for (let k = 0; k < groups.length; k++) {
    const start = view.groupStart[groups[k]];
    const n = view.groupStart[groups[k] + 1] - start;
    scored.push({
      energies: e.subarray(offset, offset + n),
      labels: view.labels.subarray(start, start + n),
      answers: answers.slice(start, start + n),
      lengths: answerTokens(view, start, n, cfg.sepId),
    });
    if (view.sources) sourced.push({ energies: e.subarray(offset, offset + n), labels: view.labels.subarray(start, start + n), sources: view.sources.index.subarray(start, start + n) });
    offset += n;
  }
  return {
    ...withSingleLabelNote(scored, withLengthCheck(scored, { seed, figuresOver }, evaluationFigures(scored, { seed, subsetsPerN: CURVE_SUBSETS, fitOn: fitScored, noFitReason: 'no training data loaded', figuresOver }))),
    histogram: energyHistogram(scored, HISTOGRAM_BINS),
    groups: scored,
    sources: view.sources ? sourceAudit(sourced, view.sources.names) : [],
  };
}
