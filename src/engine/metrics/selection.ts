/**
 * The selection report of an evaluation (selectionTypes.ts): every rule's accuracy with a 95% bootstrap
 * interval over groups, the rules against majority vote (paired: the exact sign-flip test decides "real",
 * Holm-adjusted over the rules compared; the bootstrap shows the size), the fitted vote and the learned
 * selector cross-fitted over the reported questions themselves (crossFit.ts: every figure that depends on a
 * fit is out of fold, never fitted on training questions) and refitted inside the bootstrap
 * (refitBootstrap.ts), calibration out of fold, the verifier's stated gain, what the energy adds, and the
 * recommendation.
 *
 * Per group, every rule scores the expected accuracy of a uniformly random pick among its tied choices
 * (tied lowest energies for Best-of-N, tied answers for the votes); an answer counts as correct with the
 * share of its candidates labelled correct. A group with no answer at all scores 0 for the votes.
 * Groups with no candidates are skipped, as in evaluateGroups. The Python twin is python/eorm/selection.py.
 */
import { BOOTSTRAP_RESAMPLES, bootstrapReplicates, percentileInterval } from './bootstrap.ts';
import { eceInterval, reliability } from './calibration/calibration.ts';
import { brierTerms, logLossTerms } from './calibration/calibrationMap.ts';
import { crossFit } from './crossFit.ts';
import { crossFitFolds } from './folds.ts';
import { generatorVoteScore } from './generators/generators.ts';
import { holm, signFlipTest } from './pairedTest.ts';
import { bestOfNScore } from './rank.ts';
import { refitReplicates } from './refitBootstrap.ts';
import { COMPARED_RULES, RULE_BY_ID, SELECTION_RULES, type SelectionRule } from './rules.ts';
import { recommendRule } from './selectionSentence.ts';
import type { Calibration, ComparedRule, ProbabilityMap, RuleFigure, SelectionReport, VersusMajority } from './selectionTypes.ts';
import { bestVerifierOf, energyGainOf } from './selectionVerdict.ts';
import { assertGroup, type ScoredGroup } from './summary.ts';
import { answerSlots, majorityVotePick, mixedLabelAnswers, weightedVotePick } from './vote.ts';

export { SELECTION_RULES } from './rules.ts';

export interface SelectionOptions {
  /** Seeds the bootstrap and the cross-fitting's folds. */
  seed: number;
  /** Bootstrap resamples (default BOOTSTRAP_RESAMPLES). */
  resamples?: number;
}

export const SIGNIFICANCE_TEST =
  'an exact paired sign-flip test on the per-question differences (drawn beyond 20 differing questions), Holm-adjusted over the rules compared';

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
    score.generatorVote[k] = generatorVoteScore(slots, g.generators?.labelled);
    score.generatorVoteFree[k] = generatorVoteScore(slots, g.generators?.agreement);
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

  const compared = COMPARED_RULES.filter((r) => fitted || r !== 'selector') as ComparedRule[];
  const diffs = compared.map((r) => score[r].map((x, k) => x - score.majority[k]));
  const brier = brierTerms(prob, score.weightedVote);
  const logLoss = logLossTerms(prob, score.weightedVote);
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const replicates = bootstrapReplicates([...SELECTION_RULES.map((r) => score[r]), ...diffs, brier, logLoss], resamples, opts.seed);
  const replicatesOf = (r: SelectionRule): Float64Array => replicates[SELECTION_RULES.indexOf(r)];
  // A fitted rule's replicates refit it; its differences are then taken replicate by replicate.
  const refit = fitted && n > 0 ? refitReplicates(groups, crossFitFolds(n, opts.seed), fit.folds, fit.all.selector, resamples, opts.seed) : null;
  const ruleReplicates = (r: SelectionRule): Float64Array => (refit && RULE_BY_ID[r].fitted ? refit[r as 'weightedVote' | 'selector'] : replicatesOf(r));
  const diffReplicates = (r: SelectionRule, versus: SelectionRule = 'majority'): Float64Array => {
    const j = compared.indexOf(r as ComparedRule);
    if (versus === 'majority' && j >= 0 && !(refit && RULE_BY_ID[r].fitted)) return replicates[SELECTION_RULES.length + j];
    const a = ruleReplicates(r);
    const b = ruleReplicates(versus);
    return a.map((x, i) => x - b[i]);
  };

  const rules = Object.fromEntries(SELECTION_RULES.map((r) => [r, { accuracy: mean(score[r]), ci: percentileInterval(ruleReplicates(r)) }])) as Record<
    SelectionRule,
    RuleFigure
  >;
  const tests = diffs.map((d) => signFlipTest(d));
  const family = compared.filter((_, j) => tests[j].differing > 0);
  const adjusted = holm(family.map((r) => tests[compared.indexOf(r)].p));
  const versusMajority: VersusMajority[] = compared.map((rule, j) => {
    const f = family.indexOf(rule);
    const pAdjusted = f >= 0 ? adjusted[f] : 1;
    return {
      rule,
      diff: mean(diffs[j]),
      ci: percentileInterval(diffReplicates(rule)),
      differing: tests[j].differing,
      p: tests[j].p,
      pAdjusted,
      real: pAdjusted < 0.05,
    };
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
    recommended: recommended.rule,
  };
  const at = SELECTION_RULES.length + compared.length;
  return {
    groups: n,
    rules,
    temperature,
    temperatureSource: fitted
      ? `fitted on ${n} held-out questions; every figure that depends on it is out of fold (${fit.folds} folds)`
      : `not fitted (T = 1): ${fit.reason}`,
    versusMajority,
    bestVerifier: bestVerifierOf(versusMajority, fitted, diffReplicates),
    energyGain: n > 0 ? energyGainOf(groups, score, fitted, temperature, diffReplicates) : null,
    test: SIGNIFICANCE_TEST,
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
      brierCi: percentileInterval(replicates[at]),
      logLoss: mean(logLoss),
      logLossCi: percentileInterval(replicates[at + 1]),
      eceRaw: rawCal.ece,
      brierRaw: mean(brierTerms(probRaw, score.weightedVoteRaw)),
      logLossRaw: mean(logLossTerms(probRaw, score.weightedVoteRaw)),
      bins: fittedCal.bins,
      binsRaw: rawCal.bins,
      selector:
        fitted && selectorCal
          ? {
              ece: selectorCal.ece,
              brier: mean(brierTerms(fit.selector.probability, fit.selector.score)),
              logLoss: mean(logLossTerms(fit.selector.probability, fit.selector.score)),
            }
          : null,
    },
    bootstrap: { resamples, seed: opts.seed },
  };
}
