/**
 * One question's pick under a selection rule, with the coherent probabilities Rerank shows
 * (metrics/rerankProbability.ts: the map fitted on the model's held-out questions). The rule decides which
 * answer is picked; the picked answer's candidate is its lowest-energy one (ties: the first; without a model,
 * the first). Majority vote and the generator-weighted vote learnt from agreement need no model at all. The
 * Python twin is python/eorm/picks.py.
 */
import { rankKey } from '../metrics/rank.ts';
import { type ProbabilityUse, rerankAnswers } from '../metrics/rerankProbability.ts';
import { RULE_BY_ID } from '../metrics/rules.ts';
import type { ProbabilityMap } from '../metrics/selectionTypes.ts';

/** 'recommended': the rule the model's last evaluation recommended (without a model: the best rule that needs none). */
export type PickRuleChoice = 'recommended' | PickRule;
export type PickRule = 'selector' | 'weightedVote' | 'bestOfN' | 'majority' | 'generatorVote' | 'generatorVoteFree';
export const PICK_RULES: readonly PickRuleChoice[] = ['recommended', 'generatorVote', 'generatorVoteFree', 'selector', 'weightedVote', 'bestOfN', 'majority'];
/** The rules that need no model. */
export const MODEL_FREE_RULES: readonly PickRule[] = ['generatorVoteFree', 'majority'];

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

/** Each candidate's generator weights: from the model's training labels, and from agreement over the set (generators.ts); null where none. */
export interface CandidateGeneratorWeights {
  labelled: ArrayLike<number> | null;
  agreement: ArrayLike<number> | null;
}

const NO_GENERATORS: CandidateGeneratorWeights = { labelled: null, agreement: null };

/** The rule a choice names for this map (null: no model), in plain words where it cannot pick. */
export function resolveRule(choice: PickRuleChoice, map: ProbabilityMap | null, namesGenerators: boolean): PickRule {
  if (map === null) {
    if (choice === 'recommended') return namesGenerators ? 'generatorVoteFree' : 'majority';
    if (!MODEL_FREE_RULES.includes(choice))
      throw new Error(
        `${RULE_BY_ID[choice].label} needs a model: train or import one, or pick by majority vote or the generator-weighted vote learnt without labels.`,
      );
    return choice;
  }
  if (choice === 'recommended') {
    const r = map.recommended;
    if (r === 'generatorVote' && map.generators) return r;
    if (r === 'generatorVoteFree' || r === 'majority' || r === 'bestOfN' || r === 'weightedVote') return r;
    return map.use === 'selector' && map.selector ? 'selector' : 'weightedVote';
  }
  if (choice === 'selector' && !map.selector)
    throw new Error('The learned selector was not fitted for this model (evaluate it on validation data first), so it cannot pick; choose another rule.');
  if (choice === 'generatorVote' && !map.generators) {
    throw new Error(
      'This model learnt no generator weights (its training file named fewer than two generators, or it was trained before them): choose the generator-weighted vote learnt without labels.',
    );
  }
  return choice;
}

/** Lowest energy among `indices` (ties: the first); the first without energies. */
function lowest(indices: Iterable<number>, energies: ArrayLike<number> | null): number {
  let best = -1;
  for (const i of indices) if (best < 0 || (energies !== null && rankKey(energies[i]) < rankKey(energies[best]))) best = i;
  return best;
}

/** Whose figures give the probabilities under `rule`. */
function useOf(rule: PickRule, map: ProbabilityMap, w: CandidateGeneratorWeights): ProbabilityUse {
  if (rule === 'selector') return { by: 'selector' };
  if (rule === 'generatorVote') return { by: 'generators', weights: w.labelled };
  if (rule === 'generatorVoteFree') return { by: 'generators', weights: w.agreement };
  if (rule === 'majority') return { by: 'counts' };
  if (rule === 'weightedVote') return { by: 'vote' };
  return map.use === 'selector' && map.selector ? { by: 'selector' } : { by: 'vote' };
}

/** The map a model-free pick reads: no temperature to speak of, nothing fitted. */
const MODEL_FREE: ProbabilityMap = { temperature: 1, platt: null, selector: null, use: 'vote' };

export function pickQuestion(
  answers: ReadonlyArray<string | null>,
  energies: ArrayLike<number> | null,
  map: ProbabilityMap | null,
  rule: PickRule,
  generators: CandidateGeneratorWeights = NO_GENERATORS,
): QuestionPick {
  const m = map ?? MODEL_FREE;
  const e = energies ?? new Float64Array(answers.length);
  const rows = rerankAnswers(answers, e, m, useOf(rule, m, generators));
  const named = rows.filter((r) => r.answer !== null);
  let picked: (typeof rows)[number] | undefined;
  let index: number;
  if (rule === 'bestOfN') {
    index = lowest(answers.keys(), energies);
    picked = named.find((r) => r.answer === answers[index]);
  } else {
    picked = named.find((r) => r.picked);
    // Rows list their candidates lowest energy first (in candidate order without energies).
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
