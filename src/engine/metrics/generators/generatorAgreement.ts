/**
 * Generator reliabilities without a label: expectation–maximisation of the one-coin Dawid–Skene model
 * (generators.ts) on how often each generator agrees with the weighted consensus. Starts from agreement with
 * the plain majority (a candidate on a most-voted answer counts 1 / the number of such answers), then
 * EM_ITERATIONS rounds, each: every question's posterior over its answers under the current weights (E), then
 * each generator's rate = the posterior mass on its own answers, smoothed as the labelled rates (M). A fixed
 * number of rounds, so the twin (python/eorm/metrics/generator_agreement.py) lands on the same weights.
 */
import { answerMass, answerPosterior, type GeneratorWeights, type SourcedAnswers, sourceCount, sourceRates, voteWeight, weightsOf } from './generators.ts';
import { type AnswerSlots, answerSlots } from '../vote.ts';

export const EM_ITERATIONS = 50;
/** K for weights learned without labels: nothing out of sample to fit it on. */
export const AGREEMENT_ALTERNATIVES = 10;

/** Rates from each answer's credit (`credit(slots, q)`, slot order): a candidate earns its answer's credit. */
function agreementRates(
  groups: ReadonlyArray<SourcedAnswers>,
  slots: AnswerSlots[],
  sources: number,
  credit: (s: AnswerSlots, q: number) => ArrayLike<number>,
) {
  const credits = slots.map((s, q) => credit(s, q));
  return sourceRates(groups, sources, (q, i) => (slots[q].slot[i] >= 0 ? credits[q][slots[q].slot[i]] : 0));
}

/** 1 / (answers tied for the most votes) on each of them, 0 elsewhere. */
function majorityCredit(s: AnswerSlots): Float64Array {
  let most = 0;
  for (const v of s.votes) most = Math.max(most, v);
  let tied = 0;
  for (const v of s.votes) if (v === most) tied++;
  return Float64Array.from(s.votes, (v) => (v === most ? 1 / tied : 0));
}

/** Reliabilities from agreement alone over `groups` (labels unread); null with fewer than two sources. */
export function fitAgreementGenerators(groups: ReadonlyArray<SourcedAnswers>, names: readonly string[]): GeneratorWeights | null {
  if (sourceCount(groups) < 2) return null;
  const noLabels = (g: SourcedAnswers) => new Uint8Array(g.answers.length);
  const slots = groups.map((g) => answerSlots(g.answers, noLabels(g)));
  let fit = agreementRates(groups, slots, names.length, majorityCredit);
  for (let round = 0; round < EM_ITERATIONS; round++) {
    const bySource = fit.rates.map((p) => voteWeight(p, AGREEMENT_ALTERNATIVES));
    const pooled = voteWeight(fit.pooled, AGREEMENT_ALTERNATIVES);
    fit = agreementRates(groups, slots, names.length, (s, q) => answerPosterior(answerMass(s, weightsOf(groups[q].sources, bySource, pooled))));
  }
  return {
    method: 'agreement',
    names: [...names],
    reliability: fit.rates,
    answers: Array.from(fit.counts),
    pooled: fit.pooled,
    alternatives: AGREEMENT_ALTERNATIVES,
  };
}
