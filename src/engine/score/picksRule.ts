/**
 * One question's pick under a selection rule, with the coherent probabilities Rerank shows
 * (metrics/rerankProbability.ts: the map fitted on the model's held-out questions). The rule decides which
 * answer is picked; the picked answer's candidate is its lowest-energy one (ties: the first; without a model,
 * the first). Majority vote and the generator-weighted vote learnt from agreement need no model at all. The
 * Python twin is python/eorm/picks.py.
 */
import { rankKey } from '../metrics/rank.ts';
import { type ProbabilityUse, mapUse, rerankAnswers, usesSelector } from '../metrics/rerankProbability.ts';
import {
  BASELINE_RULE,
  FALLBACK_VERIFIER_RULE,
  MODEL_FREE_RULES,
  PICK_ORDER,
  PRIMARY_VERIFIER_RULE,
  RULE_BY_ID,
  type SelectionRule,
} from '../metrics/rules.ts';
import type { ProbabilityMap } from '../metrics/selectionTypes.ts';

export { MODEL_FREE_RULES } from '../metrics/rules.ts';

/** 'recommended': the rule the model's last evaluation recommended (without a model: the best rule that needs none). */
export type PickRuleChoice = 'recommended' | PickRule;
/** A rule whose rules.json entry says how it picks (`pick`). */
export type PickRule = SelectionRule;
export const PICK_RULES: readonly PickRuleChoice[] = ['recommended', ...PICK_ORDER];

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
    if (choice === 'recommended') return MODEL_FREE_RULES.find((r) => namesGenerators || RULE_BY_ID[r].generators === null) ?? BASELINE_RULE;
    if (!MODEL_FREE_RULES.includes(choice))
      throw new Error(
        `${RULE_BY_ID[choice].label} needs a model: train or import one, or pick by majority vote or the generator-weighted vote learnt without labels.`,
      );
    return choice;
  }
  if (choice === 'recommended') {
    const r = map.recommended;
    // The selector picks only as the map's own rule; a rule that cannot pick, or that lacks its weights, gives way to it or the vote.
    const spec = r === undefined ? null : RULE_BY_ID[r];
    if (r && spec && spec.pick !== null && spec.pick !== 'coefficients' && (spec.generators !== 'labelled' || map.generators)) return r;
    return usesSelector(map) ? PRIMARY_VERIFIER_RULE : FALLBACK_VERIFIER_RULE;
  }
  const spec = RULE_BY_ID[choice];
  if (spec.pick === null) throw new Error(`${spec.label} cannot pick answers; choose one of the rules Pick answers offers.`);
  if (spec.pick === 'coefficients' && !map.selector)
    throw new Error('The learned selector was not fitted for this model (evaluate it on validation data first), so it cannot pick; choose another rule.');
  if (spec.generators === 'labelled' && !map.generators) {
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

/** Whose figures give the probabilities under `rule`; the selector reads the generator weights and fields it was fitted with. */
function useOf(rule: PickRule, map: ProbabilityMap, w: CandidateGeneratorWeights, fields: ReadonlyArray<ArrayLike<number>>): ProbabilityUse {
  const { pick, generators } = RULE_BY_ID[rule];
  if (pick === 'generators') return { by: 'generators', weights: generators === 'labelled' ? w.labelled : w.agreement };
  const use = pick === 'coefficients' || pick === 'counts' || pick === 'vote' ? { by: pick } : mapUse(map);
  return use.by === 'coefficients' ? { by: 'coefficients', generators: w.labelled ?? w.agreement, fields } : use;
}

/** The map a model-free pick reads: no temperature to speak of, nothing fitted. */
const MODEL_FREE: ProbabilityMap = { temperature: 1, platt: null, selector: null, use: 'vote' };

/** `fields`: per field of the map's selectorFields, each candidate's value (NaN: none). */
export function pickQuestion(
  answers: ReadonlyArray<string | null>,
  energies: ArrayLike<number> | null,
  map: ProbabilityMap | null,
  rule: PickRule,
  generators: CandidateGeneratorWeights = NO_GENERATORS,
  fields: ReadonlyArray<ArrayLike<number>> = [],
): QuestionPick {
  const m = map ?? MODEL_FREE;
  const e = energies ?? new Float64Array(answers.length);
  const rows = rerankAnswers(answers, e, m, useOf(rule, m, generators, fields));
  const named = rows.filter((r) => r.answer !== null);
  let picked: (typeof rows)[number] | undefined;
  let index: number;
  if (RULE_BY_ID[rule].pick === 'lowestEnergy') {
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
