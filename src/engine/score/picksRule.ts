/**
 * One question's pick under a selection rule, with the calibrated probability Rerank shows
 * (metrics/rerankProbability.ts: the map fitted on the model's held-out questions). The rule decides which
 * answer is picked; the map gives every answer its probability. An answer's picked candidate is its lowest
 * energy one (ties: the first). The Python twin is python/eorm/picks.py.
 */
import { rankKey } from '../metrics/rank.ts';
import { rerankAnswers } from '../metrics/rerankProbability.ts';
import type { ProbabilityMap } from '../metrics/selectionTypes.ts';

/** 'recommended': the rule the model's last evaluation recommended (the map's `use`). */
export type PickRuleChoice = 'recommended' | PickRule;
export type PickRule = 'selector' | 'weightedVote' | 'bestOfN' | 'majority';
export const PICK_RULES: readonly PickRuleChoice[] = ['recommended', 'selector', 'weightedVote', 'bestOfN', 'majority'];

export interface QuestionPick {
  /** The picked candidate's position in its group (0-based). */
  index: number;
  /** Its final answer (answer key); null when no candidate has one. */
  answer: string | null;
  /** The picked answer's calibrated probability; null without an answer. */
  probability: number | null;
  /** The most probable other answer (ties: the first seen) and its probability; null when there is none. */
  runnerUp: string | null;
  runnerUpProbability: number | null;
}

/** The rule a choice names for this map; the selector only where the map has one. */
export function resolveRule(choice: PickRuleChoice, map: ProbabilityMap): PickRule {
  if (choice === 'recommended') return map.use === 'selector' && map.selector ? 'selector' : 'weightedVote';
  if (choice === 'selector' && !map.selector) throw new Error('The learned selector was not fitted for this model (evaluate it on validation data first), so it cannot pick; choose another rule.');
  return choice;
}

/** Lowest energy among `indices` (ties: the first). */
function lowest(indices: Iterable<number>, energies: ArrayLike<number>): number {
  let best = -1;
  for (const i of indices) if (best < 0 || rankKey(energies[i]) < rankKey(energies[best])) best = i;
  return best;
}

export function pickQuestion(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>, map: ProbabilityMap, rule: PickRule): QuestionPick {
  // Probabilities: the selector's when it picks, the vote's (Platt's map of its share where fitted) when the
  // vote picks, else the recommended rule's.
  const rows = rerankAnswers(answers, energies, { ...map, use: rule === 'selector' ? 'selector' : rule === 'weightedVote' ? 'vote' : map.use });
  const named = rows.filter((r) => r.answer !== null);
  let picked: (typeof rows)[number] | undefined;
  let index: number;
  if (rule === 'bestOfN') {
    index = lowest(answers.keys(), energies);
    picked = named.find((r) => r.answer === answers[index]);
  } else {
    if (rule === 'majority') {
      for (const r of named) if (!picked || r.candidates.length > picked.candidates.length) picked = r;
    } else {
      picked = named.find((r) => r.picked);
    }
    // Rows list their candidates lowest energy first.
    index = picked ? picked.candidates[0] : lowest(answers.keys(), energies);
  }
  let runnerUp: (typeof rows)[number] | undefined;
  for (const r of named) if (r !== picked && (!runnerUp || r.probability > runnerUp.probability)) runnerUp = r;
  return {
    index,
    answer: picked ? picked.answer : null,
    probability: picked ? picked.probability : null,
    runnerUp: runnerUp ? runnerUp.answer : null,
    runnerUpProbability: runnerUp ? runnerUp.probability : null,
  };
}
