/**
 * The selection report of an evaluation (selectionTypes.ts): every rule's accuracy with a 95% bootstrap
 * interval over groups, the verifier rules against majority vote (paired), the fitted vote and the learned
 * selector cross-fitted over the reported questions themselves (crossFit.ts: every figure that depends on a
 * fit is out of fold, never fitted on training questions), calibration out of fold, and the recommendation.
 *
 * Per group, every rule scores the expected accuracy of a uniformly random pick among its tied choices
 * (tied lowest energies for Best-of-N, tied answers for the votes); an answer counts as correct with the
 * share of its candidates labelled correct. A group with no answer at all scores 0 for the votes.
 * Groups with no candidates are skipped, as in evaluateGroups. The Python twin is python/eorm/selection.py.
 */
import { bootstrapIntervals, BOOTSTRAP_RESAMPLES } from './bootstrap.ts';
import { eceInterval, reliability } from './calibration.ts';
import { brierTerms, logLossTerms } from './calibrationMap.ts';
import { crossFit } from './crossFit.ts';
import { bestOfNScore } from './rank.ts';
import { largestDiff, recommendRule } from './selectionSentence.ts';
import type { Calibration, ProbabilityMap, RuleFigure, SelectionReport, SelectionRule, VerifierRule, VersusMajority } from './selectionTypes.ts';
import { assertGroup, type ScoredGroup } from './summary.ts';
import { answerSlots, majorityVotePick, mixedLabelAnswers, weightedVotePick } from './vote.ts';

/** The rules in report order (also the order of the bootstrap's columns). */
export const SELECTION_RULES: readonly SelectionRule[] = ['bestOfN', 'majority', 'weightedVote', 'weightedVoteRaw', 'selector', 'first', 'random', 'oracle'];
/** The verifier rules compared with majority vote, in report order. */
export const VERIFIER_RULES: readonly VerifierRule[] = ['bestOfN', 'weightedVote', 'weightedVoteRaw', 'selector'];

export interface SelectionOptions {
  /** Seeds the bootstrap and the cross-fitting's folds. */
  seed: number;
  /** Bootstrap resamples (default BOOTSTRAP_RESAMPLES). */
  resamples?: number;
}

const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length > 0 ? s / xs.length : NaN;
};

export function selectionReport(scored: ReadonlyArray<ScoredGroup>, opts: SelectionOptions): SelectionReport {
  const groups = scored.filter((g, i) => {
    assertGroup(g, i);
    return g.energies.length > 0;
  });
  const n = groups.length;
  const score = Object.fromEntries(SELECTION_RULES.map((r) => [r, new Float64Array(n)])) as Record<SelectionRule, Float64Array<ArrayBufferLike>>;
  const probRaw: Float64Array<ArrayBufferLike> = new Float64Array(n);
  let mixed = 0;
  groups.forEach((g, k) => {
    const slots = answerSlots(g.answers, g.labels);
    const raw = weightedVotePick(slots, g.energies, 1);
    let nCorrect = 0;
    for (let i = 0; i < g.labels.length; i++) nCorrect += g.labels[i];
    score.bestOfN[k] = bestOfNScore(g.energies, g.labels);
    score.majority[k] = majorityVotePick(slots);
    score.weightedVoteRaw[k] = raw.score;
    score.first[k] = g.labels[0];
    score.random[k] = nCorrect / g.labels.length;
    score.oracle[k] = nCorrect > 0 ? 1 : 0;
    probRaw[k] = raw.probability;
    mixed += mixedLabelAnswers(slots);
  });

  // Out of fold when there are enough questions; else the vote stays at T = 1, its shares uncalibrated, and the selector unfitted.
  const fit = crossFit(groups, opts.seed);
  const fitted = !('reason' in fit);
  let prob = probRaw;
  let map: Calibration['map'] = 'none';
  if (fitted) {
    score.weightedVote = fit.vote.score;
    score.selector = fit.selector.score;
    const plattWins = mean(logLossTerms(fit.vote.platt, fit.vote.score)) < mean(logLossTerms(fit.vote.share, fit.vote.score));
    map = plattWins ? 'platt' : 'share';
    prob = plattWins ? fit.vote.platt : fit.vote.share;
  } else {
    score.weightedVote = score.weightedVoteRaw;
    score.selector.fill(NaN);
  }

  const paired = VERIFIER_RULES.filter((r) => fitted || r !== 'selector');
  const diffs = paired.map((r) => score[r].map((x, k) => x - score.majority[k]));
  const brier = brierTerms(prob, score.weightedVote);
  const logLoss = logLossTerms(prob, score.weightedVote);
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const intervals = bootstrapIntervals([...SELECTION_RULES.map((r) => score[r]), ...diffs, brier, logLoss], resamples, opts.seed);
  const rules = Object.fromEntries(SELECTION_RULES.map((r, c) => [r, { accuracy: mean(score[r]), ci: intervals[c] }])) as Record<SelectionRule, RuleFigure>;
  const versusMajority: VersusMajority[] = paired.map((rule, j) => {
    const ci = intervals[SELECTION_RULES.length + j];
    return { rule, diff: mean(diffs[j]), ci, real: ci.lo > 0 || ci.hi < 0 };
  });
  const fittedCal = reliability(prob, score.weightedVote);
  const rawCal = reliability(probRaw, score.weightedVoteRaw);
  const selectorCal = fitted ? reliability(fit.selector.probability, fit.selector.score) : null;
  const temperature = fitted ? fit.all.temperature : 1;
  const recommended = recommendRule(rules, versusMajority, temperature, n);
  const probabilityMap: ProbabilityMap = {
    temperature,
    platt: fitted && map === 'platt' ? { ...fit.all.platt } : null,
    selector: fitted ? Array.from(fit.all.selector) : null,
    use: recommended.rule === 'selector' ? 'selector' : 'vote',
  };
  const intervalAt = SELECTION_RULES.length + paired.length;
  return {
    groups: n,
    rules,
    temperature,
    temperatureSource: fitted
      ? `fitted on ${n} held-out questions; every figure that depends on it is out of fold (${fit.folds} folds)`
      : `not fitted (T = 1): ${fit.reason}`,
    versusMajority,
    bestVerifier: largestDiff(versusMajority, (v) => v.diff),
    probabilityMap,
    recommended,
    mixedLabelAnswers: mixed,
    calibration: {
      method: fitted ? `k-fold:${fit.folds}` : `none: ${fit.reason}`,
      questions: fitted ? n : 0,
      map,
      ece: fittedCal.ece,
      eceCi: eceInterval(prob, score.weightedVote, resamples, opts.seed),
      brier: mean(brier),
      brierCi: intervals[intervalAt],
      logLoss: mean(logLoss),
      logLossCi: intervals[intervalAt + 1],
      eceRaw: rawCal.ece,
      brierRaw: mean(brierTerms(probRaw, score.weightedVoteRaw)),
      logLossRaw: mean(logLossTerms(probRaw, score.weightedVoteRaw)),
      bins: fittedCal.bins,
      binsRaw: rawCal.bins,
      selector:
        fitted && selectorCal
          ? { ece: selectorCal.ece, brier: mean(brierTerms(fit.selector.probability, fit.selector.score)), logLoss: mean(logLossTerms(fit.selector.probability, fit.selector.score)) }
          : null,
    },
    bootstrap: { resamples, seed: opts.seed },
  };
}
