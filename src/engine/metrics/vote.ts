import { rankKey } from './rank.ts';

/**
 * Voting over final answers. Every vote (evaluation, the N-curve, the dataset summary) is scored with
 * majorityVoteScore / weightedVotePick: the expected accuracy of a random pick among tied answers, each
 * answer correct with the share of its candidates labelled correct (the same tie rule as Best-of-N).
 */

/**
 * Relative tolerance under which two answers' vote weights count as tied. Weights are sums of exp(),
 * whose last bits differ between JS engines and libm (the Python twin): a tolerance keeps ties (identical
 * candidates, equal energies) ties on both sides. Majority counts are integers and tie exactly.
 */
export const VOTE_TIE_TOLERANCE = 1e-12;

/** A group's distinct final answers (first-seen order) and, per candidate, its answer's slot (-1: no answer). */
export interface AnswerSlots {
  slot: Int32Array;
  /** Candidates per answer. */
  votes: number[];
  /** Candidates labelled correct per answer: an answer is correct with probability correct / votes. */
  correct: number[];
}

export function answerSlots(answers: ReadonlyArray<string | null>, labels: ArrayLike<number>): AnswerSlots {
  const index = new Map<string, number>();
  const slot = new Int32Array(answers.length);
  const votes: number[] = [];
  const correct: number[] = [];
  answers.forEach((a, i) => {
    if (a === null) {
      slot[i] = -1;
      return;
    }
    let k = index.get(a);
    if (k === undefined) {
      k = votes.length;
      index.set(a, k);
      votes.push(0);
      correct.push(0);
    }
    slot[i] = k;
    votes[k]++;
    correct[k] += labels[i];
  });
  return { slot, votes, correct };
}

/** Answers whose candidates carry both labels: the answer matching and the labels disagree about them. */
export function mixedLabelAnswers(s: AnswerSlots): number {
  let mixed = 0;
  for (let k = 0; k < s.votes.length; k++) if (s.correct[k] > 0 && s.correct[k] < s.votes[k]) mixed++;
  return mixed;
}

/**
 * Expected accuracy of majority vote: a uniformly random pick among the answers tied for the most votes,
 * each answer correct with the share of its candidates labelled correct. 0 when no candidate has an answer.
 */
export function majorityVoteScore(answers: ReadonlyArray<string | null>, labels: ArrayLike<number>): number {
  return majorityVotePick(answerSlots(answers, labels));
}

/** majorityVoteScore on a group's answer slots. */
export function majorityVotePick({ votes, correct }: AnswerSlots): number {
  let most = 0;
  for (const v of votes) most = Math.max(most, v);
  let tied = 0;
  let share = 0;
  for (let k = 0; k < votes.length; k++) {
    if (votes[k] === most) {
      tied++;
      share += correct[k] / votes[k];
    }
  }
  return tied > 0 ? share / tied : 0;
}

/**
 * Each answer's share of the group's softmax(−E/T) mass (normalised over every candidate, so candidates
 * without an answer keep theirs and the shares sum to at most 1). Non-finite energies rank as +Infinity
 * (rank.ts): weight 0, or equal weights when every energy is non-finite.
 */
export function answerMasses(s: AnswerSlots, energies: ArrayLike<number>, temperature: number): Float64Array {
  let minE = Infinity;
  for (let i = 0; i < energies.length; i++) minE = Math.min(minE, rankKey(energies[i]));
  const mass = new Float64Array(s.votes.length);
  let total = 0;
  for (let i = 0; i < energies.length; i++) {
    // Shifting by the minimum keeps exp() in range; the normaliser cancels it.
    const w = minE === Infinity ? 1 : Math.exp(-(rankKey(energies[i]) - minE) / temperature);
    total += w;
    if (s.slot[i] >= 0) mass[s.slot[i]] += w;
  }
  for (let k = 0; k < mass.length; k++) mass[k] /= total;
  return mass;
}

/** What the energy-weighted vote picks in one group. */
export interface VotePick {
  /** Expected accuracy: a random pick among the answers tied for the most mass, each correct with its share. */
  score: number;
  /** The vote's probability that its pick is correct: the picked answer's mass (0 when nothing is answered). */
  probability: number;
}

/** Energy-weighted vote at temperature T: every candidate adds softmax(−E/T)_i to its answer; the heaviest answer wins. */
export function weightedVotePick(s: AnswerSlots, energies: ArrayLike<number>, temperature: number): VotePick {
  const mass = answerMasses(s, energies, temperature);
  let most = 0;
  for (const m of mass) most = Math.max(most, m);
  let tied = 0;
  let share = 0;
  let probability = 0;
  for (let k = 0; k < mass.length; k++) {
    if (mass[k] >= most * (1 - VOTE_TIE_TOLERANCE)) {
      tied++;
      share += s.correct[k] / s.votes[k];
      probability += mass[k];
    }
  }
  return tied > 0 ? { score: share / tied, probability: probability / tied } : { score: 0, probability: 0 };
}

/** Expected accuracy of the energy-weighted vote at temperature T (see weightedVotePick). */
export function weightedVoteScore(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>, labels: ArrayLike<number>, temperature = 1): number {
  return weightedVotePick(answerSlots(answers, labels), energies, temperature).score;
}
