/**
 * The selection report of an evaluation (selectionTypes.ts): every rule's accuracy with a 95% bootstrap
 * interval over groups, the rules against majority vote (paired: the exact sign-flip test decides "real",
 * Holm-adjusted over the rules compared; the bootstrap shows the size), the fitted vote and the learned
 * selector cross-fitted over the reported questions themselves (crossFit.ts: every figure that depends on a
 * fit is out of fold, never fitted on training questions), their intervals widened by the spread of further
 * cross-fits (repeatedCrossFit.ts), calibration out of fold, the verifier's stated gain, what the energy adds, and the
 * recommendation.
 *
 * Per group, every rule scores the expected accuracy of a uniformly random pick among its tied choices
 * (tied lowest energies for Best-of-N, tied answers for the votes); an answer counts as correct with the
 * share of its candidates labelled correct. A group with no answer at all scores 0 for the votes.
 * Groups with no candidates are skipped, as in evaluateGroups. The Python twin is python/eorm/selection.py.
 */
import { BOOTSTRAP_RESAMPLES, bootstrapReplicates, differenceInterval, mean, percentileInterval } from './bootstrap.ts';
import { eceInterval, reliability } from './calibration/calibration.ts';
import { brierTerms, logLossTerms } from './calibration/calibrationMap.ts';
import { crossFit } from './crossFit.ts';
import { holm, signFlipTest } from './pairedTest.ts';
import { repeatedCrossFits, widenForFit } from './repeatedCrossFit.ts';
import { CALIBRATED_VOTE_RULE, RAW_VOTE_RULE, scorerOf } from './ruleScores.ts';
import { BASELINE_RULE, COMPARED_RULES, FITTED_RULES, PRIMARY_VERIFIER_RULE, SELECTION_RULES, type SelectionRule } from './rules.ts';
import { recommendRule } from './selectionSentence.ts';
import type { Calibration, ProbabilityMap, RuleFigure, SelectionReport, VersusMajority } from './selectionTypes.ts';
import { bestVerifierOf, energyGainOf } from './selectionVerdict.ts';
import { assertGroup, type ScoredGroup } from './summary.ts';
import { answerSlots, mixedLabelAnswers, weightedVotePick } from './vote.ts';

export { SELECTION_RULES } from './rules.ts';

export interface SelectionOptions {
  /** Seeds the bootstrap and the cross-fitting's folds. */
  seed: number;
  /** Bootstrap resamples (default BOOTSTRAP_RESAMPLES). */
  resamples?: number;
}

export const SIGNIFICANCE_TEST =
  'an exact paired sign-flip test on the per-question differences (drawn beyond 20 differing questions), Holm-adjusted over the rules compared';

export function selectionReport(scored: ReadonlyArray<ScoredGroup>, opts: SelectionOptions): SelectionReport {
  const groups = scored.filter((g, i) => {
    assertGroup(g, i);
    return g.energies.length > 0;
  });
  const n = groups.length;
  const score = Object.fromEntries(SELECTION_RULES.map((r) => [r, new Float64Array(n)])) as Record<SelectionRule, Float64Array<ArrayBufferLike>>;
  const probRaw: Float64Array<ArrayBufferLike> = new Float64Array(n);
  // Out of fold when there are enough questions; else the vote stays at T = 1, its shares uncalibrated, and the selector unfitted.
  const fit = crossFit(groups, opts.seed);
  const fitted = !('reason' in fit);
  // Scored here as applied unfitted (T = 1, no selector); the fitted rules, where fitted, by their out-of-fold scores below.
  const unfitted = fitted ? SELECTION_RULES.filter((r) => !FITTED_RULES.includes(r)) : SELECTION_RULES;
  let mixed = 0;
  groups.forEach((g, k) => {
    const slots = answerSlots(g.answers, g.labels);
    const raw = weightedVotePick(slots, g.energies, 1);
    let correct = 0;
    for (let i = 0; i < g.labels.length; i++) correct += g.labels[i];
    const input = { g, slots, correct, temperature: 1, selector: null };
    for (const r of unfitted) score[r][k] = scorerOf(r).score(input);
    probRaw[k] = raw.probability;
    mixed += mixedLabelAnswers(slots);
  });

  let prob = probRaw;
  let map: Calibration['map'] = 'none';
  if (fitted) {
    for (const r of FITTED_RULES) score[r] = scorerOf(r).outOfFold!(fit);
    const plattWins = mean(logLossTerms(fit.vote.platt, fit.vote.score)) < mean(logLossTerms(fit.vote.share, fit.vote.score));
    map = plattWins ? 'platt' : 'share';
    prob = plattWins ? fit.vote.platt : fit.vote.share;
  }

  // The primary verifier rule cannot be compared unfitted (the fallback verifier rule stands in for it).
  const compared = COMPARED_RULES.filter((r) => fitted || r !== PRIMARY_VERIFIER_RULE);
  const diffs = compared.map((r) => score[r].map((x, k) => x - score[BASELINE_RULE][k]));
  const vote = score[CALIBRATED_VOTE_RULE];
  const brier = brierTerms(prob, vote);
  const logLoss = logLossTerms(prob, vote);
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const replicates = bootstrapReplicates([...SELECTION_RULES.map((r) => score[r]), ...diffs, brier, logLoss], resamples, opts.seed);
  const replicatesOf = (r: SelectionRule): Float64Array => replicates[SELECTION_RULES.indexOf(r)];
  // A fitted rule's figure under further deals of the questions into folds, whose spread its interval adds.
  const repeats = fitted && n > 0 ? repeatedCrossFits(groups, opts.seed) : [];
  const isFitted = (r: SelectionRule) => repeats.length > 0 && FITTED_RULES.includes(r);
  const meanOf = (r: SelectionRule, deal: number): number => (isFitted(r) ? mean(scorerOf(r).outOfFold!(repeats[deal])) : mean(score[r]));
  const dealsOf = (r: SelectionRule, versus: SelectionRule | null): Float64Array | null =>
    isFitted(r) || (versus !== null && isFitted(versus))
      ? Float64Array.from(repeats, (_, t) => meanOf(r, t) - (versus === null ? 0 : meanOf(versus, t)))
      : null;
  const widened = (reps: Float64Array, estimate: number, deals: Float64Array | null) => (deals ? widenForFit(reps, estimate, deals) : reps);
  const ruleReplicates = (r: SelectionRule): Float64Array => widened(replicatesOf(r), mean(score[r]), dealsOf(r, null));
  const diffReplicates = (r: SelectionRule, versus: SelectionRule = BASELINE_RULE): Float64Array => {
    const j = compared.indexOf(r);
    const other = replicatesOf(versus);
    const plain = versus === BASELINE_RULE && j >= 0 ? replicates[SELECTION_RULES.length + j] : replicatesOf(r).map((x, i) => x - other[i]);
    return widened(plain, mean(score[r]) - mean(score[versus]), dealsOf(r, versus));
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
      ci: differenceInterval(diffReplicates(rule), diffs[j]),
      differing: tests[j].differing,
      p: tests[j].p,
      pAdjusted,
      real: pAdjusted < 0.05,
    };
  });
  const rawVote = score[RAW_VOTE_RULE];
  const fittedCal = reliability(prob, vote);
  const rawCal = reliability(probRaw, rawVote);
  const selectorCal = fitted ? reliability(fit.selector.probability, fit.selector.score) : null;
  const temperature = fitted ? fit.all.temperature : 1;
  const recommended = recommendRule(rules, versusMajority, temperature, n);
  const probabilityMap: ProbabilityMap = {
    temperature,
    platt: fitted && map === 'platt' ? { ...fit.all.platt } : null,
    selector: fitted ? Array.from(fit.all.selector) : null,
    use: recommended.rule === PRIMARY_VERIFIER_RULE ? PRIMARY_VERIFIER_RULE : 'vote',
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
    bestVerifier: bestVerifierOf(versusMajority, fitted, (r) => diffs[compared.indexOf(r)], diffReplicates),
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
      eceCi: eceInterval(prob, vote, resamples, opts.seed),
      brier: mean(brier),
      brierCi: percentileInterval(replicates[at]),
      logLoss: mean(logLoss),
      logLossCi: percentileInterval(replicates[at + 1]),
      eceRaw: rawCal.ece,
      brierRaw: mean(brierTerms(probRaw, rawVote)),
      logLossRaw: mean(logLossTerms(probRaw, rawVote)),
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
