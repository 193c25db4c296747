/**
 * The selection rules, declared once in python/eorm/data/rules.json (the Python twin reads the same file):
 * ids, names, and what each rule reads. Everything that lists rules (the report, its sentence, the model
 * card, the UI, picks) reads this table.
 */
import table from '../../../python/eorm/data/rules.json';

export type SelectionRule =
  'bestOfN' | 'majority' | 'weightedVote' | 'weightedVoteRaw' | 'selector' | 'generatorVote' | 'generatorVoteFree' | 'first' | 'random' | 'oracle';

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
  /** Fitted on the reported questions: refitted inside the bootstrap (refitBootstrap.ts). */
  fitted: boolean;
  /** Pick answers and Rerank can apply it. */
  canPick: boolean;
}

export const RULES = table.rules as RuleSpec[];
export const RULE_BY_ID = Object.fromEntries(RULES.map((r) => [r.id, r])) as Record<SelectionRule, RuleSpec>;
/** Every rule, in report order (also the order of the bootstrap's columns). */
export const SELECTION_RULES: readonly SelectionRule[] = RULES.map((r) => r.id);
/** The rules compared with majority vote, in report order. */
export const COMPARED_RULES: readonly SelectionRule[] = RULES.filter((r) => r.comparedWithMajority).map((r) => r.id);
/** The rules that read the energies. */
export const VERIFIER_RULES: readonly SelectionRule[] = RULES.filter((r) => r.usesEnergy).map((r) => r.id);
/** The verifier rule declared in advance: the one whose gain is reported when no rule is chosen for real. */
export const PRIMARY_VERIFIER_RULE = table.primaryVerifierRule as SelectionRule;
/** Who wins a tie for the place, first to last. */
export const TIE_ORDER = table.tieOrder as SelectionRule[];
export const RULE_NAMES = Object.fromEntries(RULES.map((r) => [r.id, r.label])) as Record<SelectionRule, string>;
