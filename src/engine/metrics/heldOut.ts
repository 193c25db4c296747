/**
 * Figures over all held-out questions and over those with both labels. With the 'all' split (split.ts)
 * validation holds every kind of question: those whose candidates are all correct or all wrong decide
 * nothing between candidates (every rule scores the same on them, but for the votes on an all-right question
 * with no extracted answer: singleLabel.ts) but belong in the accuracy a user would
 * report; the groups with both labels are where rules differ (and where the oracle is 100%). Rules score
 * ties as in the selection report (selection.ts, vote.ts); python/eorm/metrics/held_out.py is the twin.
 */
import { type NCurveRow, bestOfNCurve } from './ncurve.ts';
import { SELECTION_RULES, selectionReport } from './selection.ts';
import type { AllQuestionsFigures, SelectionReport, SelectionRule } from './selectionTypes.ts';
import { type EvalSummary, type ScoredGroup, evaluateGroups } from './summary.ts';
import { scorerOf } from './ruleScores.ts';
import { answerSlots } from './vote.ts';

/** At least one correct and one incorrect candidate. */
export function hasBothLabels(g: ScoredGroup): boolean {
  let pos = 0;
  for (let i = 0; i < g.labels.length; i++) pos += g.labels[i];
  return pos > 0 && pos < g.labels.length;
}

/**
 * One group's expected accuracy under `rule` (the weighted vote at `temperature`, the selector with
 * coefficients `selector`: NaN without them).
 */
export function ruleScore(g: ScoredGroup, rule: SelectionRule, temperature: number, selector: ArrayLike<number> | null = null): number {
  let correct = 0;
  for (let i = 0; i < g.labels.length; i++) correct += g.labels[i];
  return scorerOf(rule).score({ g, slots: answerSlots(g.answers, g.labels), correct, temperature, selector });
}

/** Mean of ruleScore over the non-empty groups; NaN when there are none. */
export function ruleAccuracy(groups: ReadonlyArray<ScoredGroup>, rule: SelectionRule, temperature: number, selector: ArrayLike<number> | null = null): number {
  let sum = 0;
  let n = 0;
  for (const g of groups) {
    if (g.labels.length === 0) continue;
    sum += ruleScore(g, rule, temperature, selector);
    n++;
  }
  return n > 0 ? sum / n : NaN;
}

export interface HeldOutFigure {
  groups: number;
  accuracy: number;
}

/** `rule`'s accuracy over every held-out question, and over those with both labels. */
export function heldOutFigures(
  groups: ReadonlyArray<ScoredGroup>,
  rule: SelectionRule,
  temperature: number,
): { allQuestions: HeldOutFigure; bothLabels: HeldOutFigure } {
  const all = groups.filter((g) => g.labels.length > 0);
  const both = all.filter(hasBothLabels);
  return {
    allQuestions: { groups: all.length, accuracy: ruleAccuracy(all, rule, temperature) },
    bothLabels: { groups: both.length, accuracy: ruleAccuracy(both, rule, temperature) },
  };
}

/**
 * Every rule's accuracy over every non-empty group: on the groups the report covers (`inReport`) its own
 * figures (out of fold for the fitted rules), on the others the maps the report fitted on all of its
 * questions, which never saw them.
 */
export function allQuestionsFigures(groups: ReadonlyArray<ScoredGroup>, report: SelectionReport, inReport: (g: ScoredGroup) => boolean): AllQuestionsFigures {
  const all = groups.filter((g) => g.labels.length > 0);
  const rest = all.filter((g) => !inReport(g));
  const { temperature, selector } = report.probabilityMap;
  const accuracy = (r: SelectionRule): number => {
    let sum = report.groups > 0 ? report.rules[r].accuracy * report.groups : 0;
    for (const g of rest) sum += ruleScore(g, r, temperature, selector);
    return all.length > 0 ? sum / all.length : NaN;
  };
  return { groups: all.length, rules: Object.fromEntries(SELECTION_RULES.map((r) => [r, accuracy(r)])) as Record<SelectionRule, number> };
}

/** 'bothLabels': a validation's figures (score/evaluation.ts says why); 'allQuestions': a test file's. */
export type FiguresOver = 'bothLabels' | 'allQuestions';

export interface EvaluationFigures {
  summary: EvalSummary;
  curve: NCurveRow[];
  /** With 'bothLabels', `allQuestions` holds each rule over every question. */
  selection: SelectionReport;
  /** The recommended rule's accuracy over every question. */
  allQuestionsAccuracy: number;
}

export interface EvaluationFiguresOptions {
  /** Seeds the bootstrap, the curve's subsets and the cross-fitting's folds. */
  seed: number;
  subsetsPerN: number;
  figuresOver: FiguresOver;
}

/**
 * The evaluated questions whose candidates all give one answer, and how many of them were right (share
 * correct): what a pick on such a question is worth (rerankProbability.ts), over every evaluated question.
 */
export function unanimousQuestions(groups: ReadonlyArray<ScoredGroup>): { right: number; questions: number } {
  let right = 0;
  let questions = 0;
  for (const g of groups) {
    const slots = answerSlots(g.answers, g.labels);
    if (slots.votes.length !== 1 || slots.slot.includes(-1)) continue;
    questions++;
    right += slots.correct[0] / slots.votes[0];
  }
  return { right, questions };
}

/** An evaluation's figures from its scored groups (python/eorm/metrics/held_out.py evaluation_figures is the twin). */
export function evaluationFigures(scored: ReadonlyArray<ScoredGroup>, opts: EvaluationFiguresOptions): EvaluationFigures {
  const reported = opts.figuresOver === 'bothLabels' ? scored.filter(hasBothLabels) : scored;
  const fitted = selectionReport(reported, { seed: opts.seed });
  const report = { ...fitted, probabilityMap: { ...fitted.probabilityMap, unanimous: unanimousQuestions(scored) } };
  const allQuestions = opts.figuresOver === 'bothLabels' ? allQuestionsFigures(scored, report, hasBothLabels) : null;
  return {
    summary: evaluateGroups(reported),
    curve: bestOfNCurve(reported, { seed: opts.seed, subsetsPerN: opts.subsetsPerN }),
    selection: allQuestions ? { ...report, allQuestions } : report,
    allQuestionsAccuracy: allQuestions ? allQuestions.rules[report.recommended.rule] : report.rules[report.recommended.rule].accuracy,
  };
}
