import { bestOfNScore, rankGroup } from '../../engine/metrics/rank.ts';
import type { CachedEvaluation } from './evaluationCache.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { EvalSet, InspectFilter, RankedCandidate } from '../protocols/models.ts';

/** One group of an evaluation, ranked, as Inspect shows it. */
export function inspectGroup(set: EvalSet, filter: InspectFilter, position: number, { data, groups, evaluation, maxLen }: CachedEvaluation): WorkerEvent {
  // 'Top choice wrong': a wrong candidate is among the lowest energies (Best-of-N below 1 for the group).
  const matching: number[] = [];
  evaluation.groups.forEach((g, k) => {
    if (filter === 'all' || bestOfNScore(g.energies, g.labels) < 1) matching.push(k);
  });
  if (matching.length === 0) {
    return { type: 'inspectGroup', set, filter, position: 0, matching: 0, groupIndex: -1, question: '', candidates: [] };
  }
  const pos = Math.min(Math.max(0, Math.floor(position)), matching.length - 1);
  const k = matching[pos];
  const group = data.dataset.groups[groups[k]];
  const scored = evaluation.groups[k];
  const first = data.view.groupStart[groups[k]];
  const rank = rankGroup(scored.energies);
  const candidates: RankedCandidate[] = rank.order.map((i, r) => {
    const length = data.view.tokens.offsets[first + i + 1] - data.view.tokens.offsets[first + i];
    return {
      rank: r + 1,
      index: i,
      energy: scored.energies[i],
      deltaToBest: rank.deltaToBest[i],
      share: rank.share[i],
      label: group.candidates[i].label,
      answer: group.candidates[i].answerKey,
      text: group.candidates[i].genText,
      tokens: Math.min(length, maxLen),
      truncated: length > maxLen,
    };
  });
  return { type: 'inspectGroup', set, filter, position: pos, matching: matching.length, groupIndex: groups[k], question: group.question, candidates };
}
