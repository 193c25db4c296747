/**
 * Figures over all held-out questions and over those with both labels. With the 'all' split (split.ts)
 * validation holds every kind of question: those whose candidates are all correct or all wrong decide
 * nothing between candidates (every rule scores the same on them) but belong in the accuracy a user would
 * report; the groups with both labels are where rules differ (and where the oracle is 100%). Rules score
 * ties as in the selection report (selection.ts, vote.ts); python/eorm/held_out.py is the twin.
 */
import { bestOfNScore } from './rank.ts';
import type { SelectionRule } from './selectionTypes.ts';
import type { ScoredGroup } from './summary.ts';
import { majorityVoteScore, weightedVoteScore } from './vote.ts';

/** At least one correct and one incorrect candidate. */
export function hasBothLabels(g: ScoredGroup): boolean {
  let pos = 0;
  for (let i = 0; i < g.labels.length; i++) pos += g.labels[i];
  return pos > 0 && pos < g.labels.length;
}

/** One group's expected accuracy under `rule` (the weighted vote at `temperature`; weightedVoteRaw at 1). */
export function ruleScore(g: ScoredGroup, rule: SelectionRule, temperature: number): number {
  const n = g.labels.length;
  let correct = 0;
  for (let i = 0; i < n; i++) correct += g.labels[i];
  switch (rule) {
    case 'bestOfN':
      return bestOfNScore(g.energies, g.labels);
    case 'majority':
      return majorityVoteScore(g.answers, g.labels);
    case 'weightedVote':
      return weightedVoteScore(g.answers, g.energies, g.labels, temperature);
    case 'weightedVoteRaw':
      return weightedVoteScore(g.answers, g.energies, g.labels, 1);
    case 'first':
      return g.labels[0];
    case 'random':
      return correct / n;
    case 'oracle':
      return correct > 0 ? 1 : 0;
  }
}

/** Mean of ruleScore over the non-empty groups; NaN when there are none. */
export function ruleAccuracy(groups: ReadonlyArray<ScoredGroup>, rule: SelectionRule, temperature: number): number {
  let sum = 0;
  let n = 0;
  for (const g of groups) {
    if (g.labels.length === 0) continue;
    sum += ruleScore(g, rule, temperature);
    n++;
  }
  return n > 0 ? sum / n : NaN;
}

export interface HeldOutFigure {
  groups: number;
  accuracy: number;
}

/** `rule`'s accuracy over every held-out question, and over those with both labels. */
export function heldOutFigures(groups: ReadonlyArray<ScoredGroup>, rule: SelectionRule, temperature: number): { allQuestions: HeldOutFigure; bothLabels: HeldOutFigure } {
  const all = groups.filter((g) => g.labels.length > 0);
  const both = all.filter(hasBothLabels);
  return {
    allQuestions: { groups: all.length, accuracy: ruleAccuracy(all, rule, temperature) },
    bothLabels: { groups: both.length, accuracy: ruleAccuracy(both, rule, temperature) },
  };
}
