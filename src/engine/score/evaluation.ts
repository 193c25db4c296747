import type { TrainingView } from '../data/types.ts';
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { type EnergyHistogram, energyHistogram } from '../metrics/histogram.ts';
import type { EvalSummary, ScoredGroup } from '../metrics/summary.ts';
import type { NCurveRow } from '../metrics/ncurve.ts';
import type { SelectionReport, SourceRow } from '../metrics/selectionTypes.ts';
import { type SourcedGroup, sourceAudit } from '../metrics/sources.ts';
import { type FiguresOver, evaluationFigures } from '../metrics/heldOut.ts';
import { answerTokens } from '../metrics/lengthBias/answerLength.ts';
import { withLengthCheck } from '../metrics/lengthBias/lengthBias.ts';
import { withSingleLabelNote } from '../metrics/singleLabel.ts';
import { scoreDistinct } from './distinctInputs.ts';
import type { ScoreOptions } from './scoring.ts';
import { candidateIds } from './candidateIds.ts';
import type { GeneratorWeights } from '../metrics/generators/generators.ts';
import { withGenerators } from '../metrics/generators/generatorTable.ts';
import type { CandidateFields } from '../data/candidateFields.ts';

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
   * Selection rules with intervals over the questions `figuresOver` names, the vote's temperature, the
   * selector and calibration cross-fitted over them, the recommendation; with 'bothLabels', `allQuestions` over every one.
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
 * Scores the given groups and computes every figure on them (which questions each is over: FiguresOver).
 * The vote's temperature, its calibration and the learned selector are cross-fitted over the reported
 * questions themselves (metrics/crossFit.ts), never on training groups, so one scoring pass is all it takes.
 * `figuresOver`: 'bothLabels' for a validation, 'allQuestions' for a test file.
 */
export async function evaluateModel(
  cfg: ModelConfig,
  params: ParamTensors,
  view: TrainingView,
  answers: ReadonlyArray<string | null>,
  groups: ArrayLike<number>,
  seed: number,
  scoring: Omit<ScoreOptions, 'budgetBytes'>,
  figuresOver: FiguresOver = 'bothLabels',
  generators: GeneratorWeights | null = null,
  fields: CandidateFields | null = null,
): Promise<Evaluation> {
  const candidates: Uint16Array[] = [];
  for (let k = 0; k < groups.length; k++) {
    for (let i = view.groupStart[groups[k]]; i < view.groupStart[groups[k] + 1]; i++) candidates.push(candidateIds(view, i, cfg.maxLen));
  }
  // Each distinct input once: identical inputs then tie exactly (distinctInputs.ts).
  const e = await scoreDistinct(cfg, params, candidates, scoring);
  return evaluationOf(view, answers, groups, e, cfg.sepId, seed, figuresOver, generators, fields);
}

/**
 * Every figure of `evaluateModel` from given energies (`energies`: the groups' candidates in order), so the
 * same figures can be computed on another engine's energies (the selection bench compares Python's report
 * with the app's on the same inputs). `fields`: the lines' numeric fields the selector also reads (view order).
 */
export function evaluationOf(
  view: TrainingView,
  answers: ReadonlyArray<string | null>,
  groups: ArrayLike<number>,
  energies: Float32Array,
  sepId: number,
  seed: number,
  figuresOver: FiguresOver = 'bothLabels',
  generators: GeneratorWeights | null = null,
  fields: CandidateFields | null = null,
): Evaluation {
  const named = fields !== null && fields.names.length > 0 ? fields : null;
  const scored: ScoredGroup[] = [];
  const sourced: SourcedGroup[] = [];
  let offset = 0;
  for (let k = 0; k < groups.length; k++) {
    const start = view.groupStart[groups[k]];
    const n = view.groupStart[groups[k] + 1] - start;
    scored.push({
      energies: energies.subarray(offset, offset + n),
      labels: view.labels.subarray(start, start + n),
      answers: answers.slice(start, start + n),
      lengths: answerTokens(view, start, n, sepId),
      ...(named ? { fields: named.values.map((v) => v.subarray(start, start + n)) } : {}),
    });
    if (view.sources)
      sourced.push({
        energies: energies.subarray(offset, offset + n),
        labels: view.labels.subarray(start, start + n),
        sources: view.sources.index.subarray(start, start + n),
      });
    offset += n;
  }
  if (offset !== energies.length) throw new Error(`evaluationOf: ${energies.length} energies for ${offset} candidates`);
  const known = view.sources ? withGenerators({ groups: scored, sources: sourced.map((g) => g.sources), names: view.sources.names }, generators) : null;
  const groupsWithGenerators = known?.groups ?? scored;
  const figures = withSingleLabelNote(
    groupsWithGenerators,
    withLengthCheck(groupsWithGenerators, { seed, figuresOver }, evaluationFigures(groupsWithGenerators, { seed, subsetsPerN: CURVE_SUBSETS, figuresOver })),
  );
  // The labelled generator weights and the selector's fields travel with the map (Rerank, picks, the exported file) where they were used.
  const map = { ...figures.selection.probabilityMap, ...(named ? { selectorFields: named.names } : {}) };
  const selection = known?.table
    ? { ...figures.selection, probabilityMap: { ...map, generators }, generators: known.table }
    : { ...figures.selection, probabilityMap: map };
  return {
    ...figures,
    selection,
    histogram: energyHistogram(scored, HISTOGRAM_BINS),
    groups: scored,
    sources: view.sources ? sourceAudit(sourced, view.sources.names) : [],
  };
}
