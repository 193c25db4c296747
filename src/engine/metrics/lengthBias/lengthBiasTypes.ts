/**
 * What the length check (lengthBias.ts) reports, and its rules' names. No imports: selectionTypes.ts carries it inside the
 * selection report, and lengthBias.ts imports the bootstrap, which imports selectionTypes.ts.
 */

/** The pickers that look at nothing but an answer's length in tokens. */
export type LengthRule = 'shortest' | 'longest';

export const LENGTH_RULES: readonly LengthRule[] = ['shortest', 'longest'];

/** Their names in tables, beside selectionTypes.ts's rules. */
export const LENGTH_RULE_NAMES: Record<LengthRule, string> = { shortest: 'Shortest answer (length alone)', longest: 'Longest answer (length alone)' };

/** A 95% interval (percentile bootstrap over questions, seeded): Interval of selectionTypes.ts. */
export interface LengthInterval {
  lo: number;
  hi: number;
}

export interface LengthBias {
  /** Questions the correlations are over: the reported ones with both labels and two answers of the same label with different lengths. */
  groups: number;
  /**
   * Within-question Spearman ρ between energy and answer length, averaged over those questions. Negative:
   * longer answers get lower energy, so the verifier prefers them.
   */
  energyCorr: number;
  energyCorrCi: LengthInterval;
  /** The same between correctness (the label) and answer length. Positive: longer answers are more often right. */
  labelCorr: number;
  labelCorrCi: LengthInterval;
  /**
   * Per question −ρ(energy, length) among answers of the same label (midranks within the right answers and
   * within the wrong ones), averaged: how much the verifier favours longer answers (negative: shorter ones)
   * among answers equally correct. A verifier that ignores length given correctness has 0 on average.
   */
  lean: number;
  leanCi: LengthInterval;
  /** The exact sign-flip test's two-sided p-value of `lean` (pairedTest.ts: exact up to 20 questions, drawn from a fixed stream beyond). */
  leanP: number;
  /** leanP ≤ 0.05: the verifier leans on length. */
  real: boolean;
  /** One plain sentence: whether the verifier leans on length more than correctness does, which way, with the interval and p. */
  sentence: string;
  /** Length alone picks, over the selection report's questions (ties: the expected accuracy of a random pick among them). */
  rules: Record<LengthRule, { accuracy: number; ci: LengthInterval }>;
  /** A validation's length rules over every held-out question (as SelectionReport.allQuestions); absent on test files. */
  allQuestions?: { groups: number; rules: Record<LengthRule, number> };
}
