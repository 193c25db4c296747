/**
 * What an evaluation reports about choosing one answer per question: each selection rule's accuracy with
 * a 95% bootstrap interval over groups, the verifier rules against majority vote (paired bootstrap), the
 * vote's temperature and the selector cross-fitted on the held-out questions, and calibration out of fold. python/eorm/score.py prints the same
 * keys (summary JSON), so one plotting script and one golden test read both.
 */

import type { LengthBias } from './lengthBias/lengthBiasTypes.ts';
import type { SingleLabelNote } from './singleLabel.ts';
import type { SelectionRule } from './rules.ts';
import type { GeneratorWeights } from './generators/generators.ts';
import type { Interval } from './bootstrap.ts';

export type { Interval } from './bootstrap.ts';

/**
 * The rules (rules.ts declares them). Ties are scored alike for every rule: the expected accuracy of a random
 * pick among the tied answers (or candidates, for Best-of-N); an answer whose candidates carry both labels
 * counts as the share of its candidates labelled correct.
 */
export type { SelectionRule } from './rules.ts';

export interface RuleFigure {
  accuracy: number;
  ci: Interval;
}

/** A rule minus majority vote on the same questions: the size with its bootstrap interval, and the exact test's verdict. */
export interface VersusMajority {
  /** One of the rules compared with majority vote (rules.ts COMPARED_RULES). */
  rule: SelectionRule;
  diff: number;
  /** 95% paired bootstrap interval (a fitted rule's widened by further cross-fits' spread: repeatedCrossFit.ts). */
  ci: Interval;
  /** Questions on which the two rules score differently. */
  differing: number;
  /** Two-sided p of the paired sign-flip test (pairedTest.ts). */
  p: number;
  /** p after Holm's adjustment over every rule compared with majority vote that differs from it somewhere. */
  pAdjusted: number;
  /** pAdjusted < 0.05: a real difference (either way), paid for the choice among rules. */
  real: boolean;
}

/**
 * The verifier rule whose gain the report states: the largest real gain among the verifier rules, else the
 * rule declared in advance (rules.json's primaryVerifierRule; the fitted vote where the selector is not
 * fitted). Its interval allows for that choice: level 1 − 0.05 / (verifier rules compared).
 */
export interface BestVerifier extends VersusMajority {
  /** One of the rules that read the energies (rules.ts VERIFIER_RULES). */
  rule: SelectionRule;
  chosen: 'real gain' | 'declared in advance';
  /** The coverage of `ci`. */
  level: number;
}

/** What the energy adds: the selector (or the fitted vote) against the best rule without it, declared in advance. */
export interface EnergyGain {
  rule: SelectionRule;
  /** Majority vote, or the generator-weighted vote where the file names its generators. */
  versus: SelectionRule;
  diff: number;
  ci: Interval;
  differing: number;
  p: number;
  real: boolean;
  /** Whether training the verifier was worth it on this data, in one sentence. */
  sentence: string;
}

/** One generator's row: how often it is right, observed and estimated, and its weight in the votes. */
export interface GeneratorRow {
  source: string;
  /** Its candidates among the reported questions. */
  candidates: number;
  /** Their share labelled correct (NaN without labels). */
  observedCorrect: number;
  /** Estimated from the training questions' labels (NaN: not estimated), and from agreement alone. */
  reliability: number;
  reliabilityFree: number;
  /** Vote weights log(p (K − 1) / (1 − p)) of the two votes. */
  weight: number;
  weightFree: number;
}

export interface GeneratorTable {
  /** K of the labelled weights (NaN: none) and of the agreement ones. */
  alternatives: number;
  alternativesFree: number;
  rows: GeneratorRow[];
}

/** One bin of a reliability diagram over the picked answers' probability (10 equal bins on [0, 1]). */
export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  /** Mean predicted probability that the picked answer is correct; NaN when empty. */
  confidence: number;
  /** Share of those picks that are correct (mixed-label answers as their share); NaN when empty. */
  accuracy: number;
}

export interface Calibration {
  /** "k-fold:K" when the figures are out of fold, else "none: <reason>" (then they are the raw shares at T = 1). */
  method: string;
  /** Held-out questions the maps were cross-fitted on (0 with "none"). */
  questions: number;
  /** What turns the vote's share into its probability, chosen by out-of-fold log loss; 'none': the raw share at T = 1. */
  map: 'share' | 'platt' | 'none';
  /** Expected calibration error of the fitted vote's probability, out of fold. */
  ece: number;
  eceCi: Interval;
  /** Brier score (mean squared error of the probability), out of fold. */
  brier: number;
  brierCi: Interval;
  /** Log loss (probabilities kept 1e-6 from 0 and 1), out of fold. */
  logLoss: number;
  logLossCi: Interval;
  /** The same three for the raw vote shares at T = 1 (nothing fitted). */
  eceRaw: number;
  brierRaw: number;
  logLossRaw: number;
  bins: ReliabilityBin[];
  binsRaw: ReliabilityBin[];
  /** The selector's own probability of its pick, out of fold; null when it is not fitted. */
  selector: { ece: number; brier: number; logLoss: number } | null;
}

/**
 * The maps fitted on every held-out question, for a later use (Rerank): the vote's temperature, Platt's map
 * of its share (null: the share itself) and the selector's coefficients (null: not fitted). `use` is the
 * recommended rule's: the primary verifier rule's id (the selector) when it is recommended, else 'vote'.
 */
export interface ProbabilityMap {
  temperature: number;
  platt: { a: number; b: number } | null;
  /** The selector's coefficients: SELECTOR_FEATURES, then one per field of `selectorFields`. */
  selector: number[] | null;
  /** The lines' numeric fields the selector reads (selector.ts), in its coefficients' order; absent or empty: none. */
  selectorFields?: string[];
  use: 'vote' | SelectionRule;
  /** The recommended rule (absent in maps recorded before it: `use` then says vote or selector). */
  recommended?: SelectionRule;
  /** The generator reliabilities learned from the training questions' labels (generators.ts); null or absent: none. */
  generators?: GeneratorWeights | null;
  /** Held-out questions whose candidates all give one answer, and how many of them were right (share correct): the probability such a pick gets. */
  unanimous?: { right: number; questions: number };
}

/** Each rule's accuracy over every evaluated question, those with a single label included (heldOut.ts). */
export interface AllQuestionsFigures {
  groups: number;
  rules: Record<SelectionRule, number>;
}

export interface SelectionReport {
  /** Groups the figures are over: a validation's questions with both labels, a test file's every question (score/evaluation.ts). */
  groups: number;
  rules: Record<SelectionRule, RuleFigure>;
  /** Fitted on every held-out question (the figures use out-of-fold ones); 1 when nothing could be fitted. */
  temperature: number;
  /** Where the temperature came from, in words (e.g. "fitted on 133 held-out questions; figures out of fold, 5 folds"). */
  temperatureSource: string;
  versusMajority: VersusMajority[];
  /** The verifier gain the report states (see BestVerifier); null when no verifier rule was compared. */
  bestVerifier: BestVerifier | null;
  /** What the energy adds over the best rule without it; null when there are no questions. */
  energyGain: EnergyGain | null;
  /** How "real" is decided, in words. */
  test: string;
  /** Per generator (the lines' `source`): set by heldOut.ts where the questions name them. */
  generators?: GeneratorTable;
  /** What Rerank and any later use apply (fitted on every held-out question). */
  probabilityMap: ProbabilityMap;
  /** The rule to use on this data, and the one plain sentence that says so and by how much it beats majority vote. */
  recommended: { rule: SelectionRule; sentence: string };
  /** Final answers whose candidates carry both labels (labels and the app's answer matching disagree). */
  mixedLabelAnswers: number;
  calibration: Calibration;
  /** Bootstrap resamples and seed behind every interval. */
  bootstrap: { resamples: number; seed: number };
  /**
   * A validation's rules (no intervals) over every held-out question, single-label ones included: what a
   * user would report. Set by score/evaluation.ts on validations; absent on test files (their figures are
   * over every question already) and in reports made before it.
   */
  allQuestions?: AllQuestionsFigures;
  /** Does the verifier lean on answer length (lengthBias.ts)? Absent in reports made before it. */
  length?: LengthBias;
  /** A validation's: what its single-label questions add to each rule (singleLabel.ts). Absent on test files and in reports made before it. */
  singleLabel?: SingleLabelNote;
}

/** Per generator (`source` field of the lines), for the per-source audit. */
export interface SourceRow {
  source: string;
  candidates: number;
  shareCorrect: number;
  /** Share of the groups' Best-of-N picks that are this source's candidates. */
  pickedShare: number;
  /** The share a uniformly random pick would give this source. */
  chanceShare: number;
  /**
   * The share its correctness earns: that of a picker blind to who wrote the answers that knows the labels
   * (per question, a uniform pick among the correct candidates; among all when none is correct).
   */
  earnedShare: number;
  /** Picks of this source over the groups (ties split by expectation): the support behind `flagged`. */
  picks: number;
  /**
   * Pairwise accuracy of this source's candidates against the other label in their own question: over the
   * (correct, incorrect) pairs of a group in which this source wrote at least one of the two, the share the
   * model orders right (ties 1/2). NaN if none. (Pairs with both candidates from one source barely exist:
   * generators write one answer per question in the sample and almost always in the 16-candidate set.)
   */
  pairwise: number;
  meanEnergyCorrect: number;
  meanEnergyIncorrect: number;
  /** Picked far above its correctness: a shortcut on who wrote the answer. */
  flagged: boolean;
}
