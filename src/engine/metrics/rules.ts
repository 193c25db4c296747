/**
 * The selection rules, declared once in python/eorm/data/rules.json (the Python twin reads the same file):
 * ids, names, what each rule reads and its role. Everything that lists rules (the report, its sentence, the model
 * card, the UI, picks) reads this table; what each rule computes is in ruleScores.ts, the one file that names them.
 */
import table from '../../../python/eorm/data/rules.json' with { type: 'json' };

import type { SelectionRule } from './ruleScores.ts';

export type { SelectionRule };

export interface RuleSpec {
  id: SelectionRule;
  /** The name in tables. */
  label: string;
  /** The sentence's name of a recommended rule ({T}: the fitted temperature), and its name where it is not. */
  named: string;
  compared: string;
  /** Reads the verifier's energies. */
  usesEnergy: boolean;
  /** Tested against majority vote. */
  comparedWithMajority: boolean;
  /** Fitted on the reported questions: its interval adds further cross-fits' spread (repeatedCrossFit.ts). */
  fitted: boolean;
  /** How Pick answers and Rerank apply it (null: they cannot; rules.json says what each means). */
  pick: RulePick | null;
  /** Which generator weights it votes with (null: none). */
  generators: 'labelled' | 'agreement' | null;
  /** It needs no model. */
  modelFree: boolean;
  /** Its name as the figure that chooses the best checkpoint (null: not offered). */
  bestMetric: string | null;
}

export type RulePick = 'lowestEnergy' | 'counts' | 'vote' | 'coefficients' | 'generators';

export const RULES = table.rules as RuleSpec[];
export const RULE_BY_ID = Object.fromEntries(RULES.map((r) => [r.id, r])) as Record<SelectionRule, RuleSpec>;
/** Every rule, in report order (also the order of the bootstrap's columns). */
export const SELECTION_RULES: readonly SelectionRule[] = RULES.map((r) => r.id);
/** The rules compared with majority vote, in report order. */
export const COMPARED_RULES: readonly SelectionRule[] = RULES.filter((r) => r.comparedWithMajority).map((r) => r.id);
/** The rules fitted on the reported questions (their intervals add further cross-fits' spread). */
export const FITTED_RULES: readonly SelectionRule[] = RULES.filter((r) => r.fitted).map((r) => r.id);
/** The rules that read the energies. */
export const VERIFIER_RULES: readonly SelectionRule[] = RULES.filter((r) => r.usesEnergy).map((r) => r.id);
/** The rule the others are compared with (majority vote). */
export const BASELINE_RULE = table.baselineRule as SelectionRule;
/** The verifier rule declared in advance: the one whose gain is reported when no rule is chosen for real. */
export const PRIMARY_VERIFIER_RULE = table.primaryVerifierRule as SelectionRule;
/** The verifier rule that stands in for the primary one where that cannot be fitted. */
export const FALLBACK_VERIFIER_RULE = table.fallbackVerifierRule as SelectionRule;
/** The figure that stands for the primary rule's while it cannot be fitted; the best metric of runs recorded before the setting. */
export const UNFITTED_BEST_METRIC = table.unfittedBestMetric as SelectionRule;
/** The rules Pick answers offers, in its order, and those of them that need no model. */
export const PICK_ORDER = table.pickOrder as SelectionRule[];
export const MODEL_FREE_RULES: readonly SelectionRule[] = PICK_ORDER.filter((r) => RULE_BY_ID[r].modelFree);
/** The rules whose figure can choose the best checkpoint, the primary verifier rule first. */
export const BEST_METRIC_RULES: readonly SelectionRule[] = [
  PRIMARY_VERIFIER_RULE,
  ...RULES.filter((r) => r.bestMetric !== null && r.id !== PRIMARY_VERIFIER_RULE).map((r) => r.id),
];
/** The rule that votes with `kind` generator weights; null where there is none. */
export const generatorRule = (kind: 'labelled' | 'agreement'): SelectionRule | null => RULES.find((r) => r.generators === kind)?.id ?? null;
/** Who wins a tie for the place, first to last. */
export const TIE_ORDER = table.tieOrder as SelectionRule[];
export const RULE_NAMES = Object.fromEntries(RULES.map((r) => [r.id, r.label])) as Record<SelectionRule, string>;
