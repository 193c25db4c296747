/**
 * The one plain sentence that says which rule to use on this data and by how much it beats majority vote.
 * A verifier rule is recommended only when its paired interval against majority vote lies above 0;
 * otherwise the sentence says majority vote, and how the best verifier rule did. The Python twin
 * (python/eorm/selection.py) writes the same words, number for number (toFixed rounding).
 */
import type { RuleFigure, SelectionRule, VerifierRule, VersusMajority } from './selectionTypes.ts';

const pct = (x: number): string => (100 * x).toFixed(1);
const points = (x: number): string => (x < 0 ? '-' : '+') + (100 * Math.abs(x)).toFixed(1);
const questions = (n: number): string => `${n} question${n === 1 ? '' : 's'}`;

/** Who wins a tie for the place, first to last. */
const PRIORITY: readonly VerifierRule[] = ['weightedVote', 'selector', 'weightedVoteRaw', 'bestOfN'];

/** Each verifier rule's name: `recommended` in the sentence that recommends it, `compared` where it does not beat majority vote. */
function ruleName(rule: VerifierRule, t: string, recommended: boolean): string {
  switch (rule) {
    case 'weightedVote':
      return recommended ? `the energy-weighted vote (T = ${t})` : `the energy-weighted vote at T = ${t}`;
    case 'weightedVoteRaw':
      return 'the energy-weighted vote at T = 1';
    case 'selector':
      return 'the learned selector (vote share and energy, cross-fitted)';
    case 'bestOfN':
      return recommended ? 'Best-of-N (the lowest-energy answer)' : 'Best-of-N';
  }
}

/** The highest of `versus` (ties: PRIORITY order); null when empty. */
export function largestDiff<T extends { rule: VerifierRule }>(versus: ReadonlyArray<T>, value: (v: T) => number): T | null {
  const ordered = [...versus].sort((a, b) => PRIORITY.indexOf(a.rule) - PRIORITY.indexOf(b.rule));
  return ordered.reduce<T | null>((m, v) => (m === null || value(v) > value(m) ? v : m), null);
}

export function recommendRule(
  rules: Record<SelectionRule, RuleFigure>,
  versus: ReadonlyArray<VersusMajority>,
  temperature: number,
  groups: number,
): { rule: SelectionRule; sentence: string } {
  if (groups === 0) return { rule: 'majority', sentence: 'No questions to compare the rules on.' };
  const winner = largestDiff(versus.filter((v) => v.real && v.diff > 0), (v) => v.diff);
  const best = winner ?? largestDiff(versus, (v) => v.diff);
  if (best === null) return { rule: 'majority', sentence: `Use majority vote: no verifier rule was compared on these ${questions(groups)}.` };
  const majority = pct(rules.majority.accuracy);
  const t = temperature.toFixed(2);
  const ci = `95% CI ${points(best.ci.lo)} to ${points(best.ci.hi)}`;
  const acc = pct(rules[best.rule].accuracy);
  if (winner) {
    return { rule: best.rule, sentence: `Use ${ruleName(best.rule, t, true)}: ${acc}% vs ${majority}% for majority vote, ${points(best.diff)} points (${ci}) over ${questions(groups)}.` };
  }
  return {
    rule: 'majority',
    sentence: `Use majority vote: no verifier rule beats it for real on these ${questions(groups)}; the best, ${ruleName(best.rule, t, false)}, scores ${acc}% vs ${majority}%, ${points(best.diff)} points (${ci}).`,
  };
}
