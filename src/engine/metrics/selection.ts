/**
 * The selection report of an evaluation (selectionTypes.ts): every rule's accuracy with a 95% bootstrap
 * interval over groups, the verifier rules against majority vote (paired), the weighted vote's temperature
 * fitted on training groups, calibration before and after the fit, and the recommendation.
 *
 * Per group, every rule scores the expected accuracy of a uniformly random pick among its tied choices
 * (tied lowest energies for Best-of-N, tied answers for the votes); an answer counts as correct with the
 * share of its candidates labelled correct. A group with no answer at all scores 0 for the votes.
 * Groups with no candidates are skipped, as in evaluateGroups. The Python twin is python/eorm/selection.py.
 */
import { bootstrapIntervals, BOOTSTRAP_RESAMPLES } from './bootstrap.ts';
import { reliability } from './calibration.ts';
import { bestOfNScore } from './rank.ts';
import { recommendRule } from './selectionSentence.ts';
import type { RuleFigure, SelectionReport, SelectionRule, VersusMajority } from './selectionTypes.ts';
import { assertGroup, type ScoredGroup } from './summary.ts';
import { TEMPERATURE_MIN, atLowerBound, fitTemperature } from './temperature.ts';
import { answerSlots, majorityVotePick, mixedLabelAnswers, weightedVotePick } from './vote.ts';

/** The rules in report order (also the order of the bootstrap's columns). */
export const SELECTION_RULES: readonly SelectionRule[] = ['bestOfN', 'majority', 'weightedVote', 'weightedVoteRaw', 'first', 'random', 'oracle'];

export interface SelectionOptions {
  /** Seeds the bootstrap. */
  seed: number;
  /** Bootstrap resamples (default BOOTSTRAP_RESAMPLES). */
  resamples?: number;
  /** Scored training groups to fit the temperature on, never the reported ones; null: T = 1. */
  fitOn: ReadonlyArray<ScoredGroup> | null;
  /** With fitOn null: why nothing is fitted, in words (e.g. "no training data loaded"). */
  noFitReason?: string;
}

const mean = (xs: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length > 0 ? s / xs.length : NaN;
};

function temperatureOf(opts: SelectionOptions): { temperature: number; source: string } {
  if (opts.fitOn === null) return { temperature: 1, source: `not fitted (T = 1): ${opts.noFitReason ?? 'no training groups given'}` };
  const fit = fitTemperature(opts.fitOn);
  if (fit.groups === 0) return { temperature: 1, source: 'not fitted (T = 1): no training group has both a correct and an incorrect answer' };
  const fitted = `fitted on ${fit.groups} training group${fit.groups === 1 ? '' : 's'}`;
  // At the lower bound the training groups separate more sharply than the search allows: the model ranks
  // the groups it trained on far better than held-out ones, so a vote this sharp is likely overconfident.
  return { temperature: fit.temperature, source: atLowerBound(fit.temperature) ? `${fitted}, at the search's lower bound (${TEMPERATURE_MIN}): the training groups may separate more sharply than held-out ones; compare with T = 1` : fitted };
}

export function selectionReport(scored: ReadonlyArray<ScoredGroup>, opts: SelectionOptions): SelectionReport {
  const { temperature, source } = temperatureOf(opts);
  const groups = scored.filter((g, i) => {
    assertGroup(g, i);
    return g.energies.length > 0;
  });
  const n = groups.length;
  const score = Object.fromEntries(SELECTION_RULES.map((r) => [r, new Float64Array(n)])) as Record<SelectionRule, Float64Array>;
  const prob = new Float64Array(n);
  const probRaw = new Float64Array(n);
  let mixed = 0;
  groups.forEach((g, k) => {
    const slots = answerSlots(g.answers, g.labels);
    const fitted = weightedVotePick(slots, g.energies, temperature);
    const raw = weightedVotePick(slots, g.energies, 1);
    let nCorrect = 0;
    for (let i = 0; i < g.labels.length; i++) nCorrect += g.labels[i];
    score.bestOfN[k] = bestOfNScore(g.energies, g.labels);
    score.majority[k] = majorityVotePick(slots);
    score.weightedVote[k] = fitted.score;
    score.weightedVoteRaw[k] = raw.score;
    score.first[k] = g.labels[0];
    score.random[k] = nCorrect / g.labels.length;
    score.oracle[k] = nCorrect > 0 ? 1 : 0;
    prob[k] = fitted.probability;
    probRaw[k] = raw.probability;
    mixed += mixedLabelAnswers(slots);
  });

  const paired: Array<VersusMajority['rule']> = ['bestOfN', 'weightedVote'];
  const diffs = paired.map((r) => score[r].map((x, k) => x - score.majority[k]));
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const intervals = bootstrapIntervals([...SELECTION_RULES.map((r) => score[r]), ...diffs], resamples, opts.seed);
  const rules = Object.fromEntries(SELECTION_RULES.map((r, c) => [r, { accuracy: mean(score[r]), ci: intervals[c] }])) as Record<SelectionRule, RuleFigure>;
  const versusMajority: VersusMajority[] = paired.map((rule, j) => {
    const ci = intervals[SELECTION_RULES.length + j];
    return { rule, diff: mean(diffs[j]), ci, real: ci.lo > 0 || ci.hi < 0 };
  });
  const fittedCal = reliability(prob, score.weightedVote);
  const rawCal = reliability(probRaw, score.weightedVoteRaw);
  return {
    groups: n,
    rules,
    temperature,
    temperatureSource: source,
    versusMajority,
    recommended: recommendRule(rules, versusMajority, temperature, n),
    mixedLabelAnswers: mixed,
    calibration: { ece: fittedCal.ece, eceRaw: rawCal.ece, bins: fittedCal.bins, binsRaw: rawCal.bins },
    bootstrap: { resamples, seed: opts.seed },
  };
}
