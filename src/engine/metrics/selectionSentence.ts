/**
 * The plain sentences of a selection report: which rule to use on this data and by how much it beats majority
 * vote, and whether the energy was worth training. A rule is recommended only when the exact paired test calls
 * its gain over majority vote real after Holm's adjustment (pairedTest.ts); otherwise the sentence says
 * majority vote, and how the best compared rule did. The Python twin (python/eorm/selection_sentence.py) writes
 * the same words, number for number (toFixed rounding).
 */
import { BASELINE_RULE, RULE_BY_ID, type SelectionRule, TIE_ORDER } from './rules.ts';
import type { EnergyGain, Interval, RuleFigure, VersusMajority } from './selectionTypes.ts';

const pct = (x: number): string => (100 * x).toFixed(1);
const points = (x: number): string => (x < 0 ? '-' : '+') + (100 * Math.abs(x)).toFixed(1);
const questions = (n: number): string => `${n} question${n === 1 ? '' : 's'}`;
const interval = (ci: Interval): string => `95% CI ${points(ci.lo)} to ${points(ci.hi)}`;
/** A p-value as the sentences print it. */
export const pValue = (p: number): string => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);

/** A rule's name in a sentence: `recommended` where it is, `compared` where it is not. */
export function ruleName(rule: SelectionRule, temperature: number, recommended: boolean): string {
  const spec = RULE_BY_ID[rule];
  return (recommended ? spec.named : spec.compared).replace('{T}', temperature.toFixed(2));
}

/** The highest of `versus` (ties: TIE_ORDER); null when empty. */
export function largestDiff<T extends { rule: SelectionRule }>(versus: ReadonlyArray<T>, value: (v: T) => number): T | null {
  const ordered = [...versus].sort((a, b) => TIE_ORDER.indexOf(a.rule) - TIE_ORDER.indexOf(b.rule));
  return ordered.reduce<T | null>((m, v) => (m === null || value(v) > value(m) ? v : m), null);
}

export function recommendRule(
  rules: Record<SelectionRule, RuleFigure>,
  versus: ReadonlyArray<VersusMajority>,
  temperature: number,
  groups: number,
): { rule: SelectionRule; sentence: string } {
  if (groups === 0) return { rule: BASELINE_RULE, sentence: 'No questions to compare the rules on.' };
  const winner = largestDiff(
    versus.filter((v) => v.real && v.diff > 0),
    (v) => v.diff,
  );
  const best = winner ?? largestDiff(versus, (v) => v.diff);
  if (best === null) return { rule: BASELINE_RULE, sentence: `Use majority vote: no other rule was compared on these ${questions(groups)}.` };
  const majority = pct(rules[BASELINE_RULE].accuracy);
  const acc = pct(rules[best.rule].accuracy);
  const test = `${pValue(best.pAdjusted)} adjusted, ${best.differing} differing`;
  if (winner) {
    return {
      rule: best.rule,
      sentence: `Use ${ruleName(best.rule, temperature, true)}: ${acc}% vs ${majority}% for majority vote, ${points(best.diff)} points (${interval(best.ci)}; ${test}) over ${questions(groups)}.`,
    };
  }
  return {
    rule: BASELINE_RULE,
    sentence: `Use majority vote: no rule beats it for real on these ${questions(groups)}; the best, ${ruleName(best.rule, temperature, false)}, scores ${acc}% vs ${majority}%, ${points(best.diff)} points (${interval(best.ci)}; ${test}).`,
  };
}

/** Whether training the verifier was worth it: the energy rule against the best rule without the energy. */
export function energyGainSentence(g: Omit<EnergyGain, 'sentence'>, temperature: number): string {
  const against = g.versus === BASELINE_RULE ? 'majority vote' : ruleName(g.versus, temperature, false);
  const what = `${ruleName(g.rule, temperature, false)} against ${against}: ${points(g.diff)} points (${interval(g.ci)}; ${pValue(g.p)}, ${g.differing} differing)`;
  if (g.real && g.diff > 0) return `The trained verifier was worth it on this data: ${what}.`;
  if (g.real) return `The trained verifier made the picks worse on this data: ${what}.`;
  return `The energy adds nothing distinguishable from no difference on this data: ${what}.`;
}
