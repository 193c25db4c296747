/**
 * What each selection rule scores on one question: the one TypeScript file that names the rules. Their
 * names and roles are declared in python/eorm/data/rules.json (rules.ts reads it); every other file finds a
 * rule by its role there. A score is the expected accuracy of a uniformly random pick among the rule's tied
 * choices, an answer counting as correct with the share of its candidates labelled correct (vote.ts).
 * python/eorm/metrics/rule_scores.py is the twin.
 */
import type { OutOfFoldScores } from './crossFit.ts';
import { generatorVoteScore } from './generators/generators.ts';
import { bestOfNScore } from './rank.ts';
import { selectorPick } from './selector.ts';
import type { EvalSummary, ScoredGroup } from './summary.ts';
import { type AnswerSlots, majorityVotePick, weightedVotePick } from './vote.ts';

/** One question as the rules read it, with the fitted maps (temperature 1 and no selector: unfitted). */
export interface RuleInput {
  g: ScoredGroup;
  slots: AnswerSlots;
  /** Candidates labelled correct. */
  correct: number;
  temperature: number;
  selector: ArrayLike<number> | null;
}

export interface RuleScorer {
  score(x: RuleInput): number;
  /** A fitted rule: its out-of-fold scores in a cross-fit (crossFit.ts; repeated for its interval: repeatedCrossFit.ts). */
  outOfFold?: (fit: OutOfFoldScores) => Float64Array;
  /** Its figure in an evaluation's summary (summary.ts), where the summary has one: what the best checkpoint falls back on. */
  summary?: (s: EvalSummary) => number;
}

export const RULE_SCORES = {
  bestOfN: { score: ({ g }) => bestOfNScore(g.energies, g.labels), summary: (s) => s.bestOfN },
  majority: { score: ({ slots }) => majorityVotePick(slots) },
  weightedVote: {
    score: ({ g, slots, temperature }) => weightedVotePick(slots, g.energies, temperature).score,
    outOfFold: (fit) => fit.vote.score,
    summary: (s) => s.baselines.weightedVote,
  },
  weightedVoteRaw: { score: ({ g, slots }) => weightedVotePick(slots, g.energies, 1).score },
  selector: {
    score: ({ g, selector }) => (selector ? selectorPick(g, selector).score : NaN),
    outOfFold: (fit) => fit.selector.score,
  },
  generatorVote: { score: ({ g, slots }) => generatorVoteScore(slots, g.generators?.labelled) },
  generatorVoteFree: { score: ({ g, slots }) => generatorVoteScore(slots, g.generators?.agreement) },
  first: { score: ({ g }) => g.labels[0] },
  random: { score: ({ g, correct }) => correct / g.labels.length },
  oracle: { score: ({ correct }) => (correct > 0 ? 1 : 0) },
} satisfies Record<string, RuleScorer>;

export type SelectionRule = keyof typeof RULE_SCORES;

/** The vote the calibration figures describe: at the fitted temperature, and at T = 1. */
export const CALIBRATED_VOTE_RULE: SelectionRule = 'weightedVote';
export const RAW_VOTE_RULE: SelectionRule = 'weightedVoteRaw';

/** The scorer of `rule`, typed as the table's common shape. */
export const scorerOf = (rule: SelectionRule): RuleScorer => RULE_SCORES[rule];
