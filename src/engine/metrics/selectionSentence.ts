/**
 * The one plain sentence that says which rule to use on this data and by how much it beats majority vote.
 * A verifier rule is recommended only when its paired interval against majority vote lies above 0;
 * otherwise the sentence says majority vote, and how the best verifier rule did. The Python twin
 * (python/eorm/selection.py) writes the same words, number for number (toFixed rounding).
 */
import type { RuleFigure, SelectionRule, VersusMajority } from './selectionTypes.ts';

const pct = (x: number): string => (100 * x).toFixed(1);
const points = (x: number): string => (x < 0 ? '-' : '+') + (100 * Math.abs(x)).toFixed(1);
const questions = (n: number): string => `${n} question${n === 1 ? '' : 's'}`;

export function recommendRule(
  rules: Record<SelectionRule, RuleFigure>,
  versus: ReadonlyArray<VersusMajority>,
  temperature: number,
  groups: number,
): { rule: SelectionRule; sentence: string } {
  if (groups === 0) return { rule: 'majority', sentence: 'No questions to compare the rules on.' };
  // The weighted vote first: it keeps the place on an exact tie with Best-of-N.
  const ordered = [...versus].sort((a, b) => (a.rule === b.rule ? 0 : a.rule === 'weightedVote' ? -1 : 1));
  const largest = (vs: VersusMajority[]): VersusMajority | null => vs.reduce<VersusMajority | null>((m, v) => (m === null || v.diff > m.diff ? v : m), null);
  const winner = largest(ordered.filter((v) => v.real && v.diff > 0));
  const best = winner ?? largest(ordered);
  if (best === null) return { rule: 'majority', sentence: `Use majority vote: no verifier rule was compared on these ${questions(groups)}.` };
  const majority = pct(rules.majority.accuracy);
  const t = temperature.toFixed(2);
  const ci = `95% CI ${points(best.ci.lo)} to ${points(best.ci.hi)}`;
  const acc = pct(rules[best.rule].accuracy);
  if (winner) {
    const name = best.rule === 'weightedVote' ? `the energy-weighted vote (T = ${t})` : 'Best-of-N (the lowest-energy answer)';
    return { rule: best.rule, sentence: `Use ${name}: ${acc}% vs ${majority}% for majority vote, ${points(best.diff)} points (${ci}) over ${questions(groups)}.` };
  }
  const name = best.rule === 'weightedVote' ? `the energy-weighted vote at T = ${t}` : 'Best-of-N';
  return {
    rule: 'majority',
    sentence: `Use majority vote: no verifier rule beats it for real on these ${questions(groups)}; the best, ${name}, scores ${acc}% vs ${majority}%, ${points(best.diff)} points (${ci}).`,
  };
}
