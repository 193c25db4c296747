/**
 * The two gains a selection report states beyond its table (selection.ts), each paid for:
 * - the verifier's gain (bestVerifier): the largest gain the Holm-adjusted test calls real among the verifier
 *   rules, else the rule declared in advance (rules.json's primaryVerifierRule), never the largest of several
 *   unadjusted ones (under no signal that averaged +0.9 points); its interval allows for the choice;
 * - what the energy adds (energyGain): the primary verifier rule against the best rule without the energy
 *   declared in advance by the file's shape (the generator-weighted vote where generators are named, with
 *   labelled weights where they were fitted; else majority vote), one exact test, nothing to adjust.
 * python/eorm/selection_verdict.py is the twin.
 */
import { signFlipTest } from './pairedTest.ts';
import { differenceInterval, mean } from './bootstrap.ts';
import { BASELINE_RULE, FALLBACK_VERIFIER_RULE, PRIMARY_VERIFIER_RULE, type SelectionRule, VERIFIER_RULES, generatorRule } from './rules.ts';
import { energyGainSentence, largestDiff } from './selectionSentence.ts';
import type { BestVerifier, EnergyGain, VersusMajority } from './selectionTypes.ts';
import type { ScoredGroup } from './summary.ts';

/** The primary verifier rule where it is fitted, else the vote at the temperature fitted (or at T = 1). */
const primaryRule = (fitted: boolean): SelectionRule => (fitted ? PRIMARY_VERIFIER_RULE : FALLBACK_VERIFIER_RULE);

export function bestVerifierOf(
  versus: ReadonlyArray<VersusMajority>,
  fitted: boolean,
  /** Each compared rule's per-question differences to majority vote. */
  diffsOf: (r: SelectionRule) => ArrayLike<number>,
  diffReplicates: (r: SelectionRule) => Float64Array,
): BestVerifier | null {
  const verifier = versus.filter((v) => VERIFIER_RULES.includes(v.rule));
  if (verifier.length === 0) return null;
  const winner = largestDiff(
    verifier.filter((v) => v.real && v.diff > 0),
    (v) => v.diff,
  );
  const chosen = winner ?? verifier.find((v) => v.rule === primaryRule(fitted)) ?? verifier[0];
  const alpha = 0.05 / verifier.length;
  return {
    ...chosen,
    chosen: winner ? 'real gain' : 'declared in advance',
    level: 1 - alpha,
    ci: differenceInterval(diffReplicates(chosen.rule), diffsOf(chosen.rule), alpha),
  };
}

/** The rule without the energy that the energy is measured against, from the groups' shape alone. */
function baselineOf(groups: ReadonlyArray<ScoredGroup>): SelectionRule {
  for (const kind of ['labelled', 'agreement'] as const) {
    const rule = generatorRule(kind);
    if (rule && groups.some((g) => g.generators?.[kind])) return rule;
  }
  return BASELINE_RULE;
}

export function energyGainOf(
  groups: ReadonlyArray<ScoredGroup>,
  score: Record<SelectionRule, ArrayLike<number>>,
  fitted: boolean,
  temperature: number,
  diffReplicates: (r: SelectionRule, versus: SelectionRule) => Float64Array,
): EnergyGain {
  const rule = primaryRule(fitted);
  const versus = baselineOf(groups);
  const d = Array.from(score[rule], (x, k) => x - score[versus][k]);
  const test = signFlipTest(d);
  const gain = {
    rule,
    versus,
    diff: mean(d),
    ci: differenceInterval(diffReplicates(rule, versus), d),
    differing: test.differing,
    p: test.p,
    real: test.p < 0.05,
  };
  return { ...gain, sentence: energyGainSentence(gain, temperature) };
}
