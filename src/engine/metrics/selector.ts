/**
 * The learned selector: per distinct final answer of a question, a penalised logistic model of "this
 * answer is right" over what the votes say and what the verifier says, and the pick is the answer it
 * rates highest. Features (SELECTOR_FEATURES): the answer's share of the question's candidates, the
 * lowest and the mean standardised energy of its candidates (energy minus the question's mean, over the
 * question's standard deviation: free of the model's energy scale), and log of its candidate count.
 * Candidates with a non-finite energy count as NONFINITE_Z (rank.ts ranks them last).
 *
 * The penalty pulls every coefficient but the intercept towards a prior in which only the vote share
 * matters (SHARE_PRIOR: on real data a share of 0.8 is right about 9 times in 10, one of 0.2 about once in
 * 5): with few questions the selector ranks answers by vote share, majority vote, and only data that shows
 * the energy helps moves it away. Fitted only on held-out questions, out of fold for every figure (crossFit.ts). The Python twin is
 * python/eorm/selection.py.
 */
import { fitLogistic, linear, sigmoid } from './logistic.ts';
import { rankKey } from './rank.ts';
import type { ScoredGroup } from './summary.ts';
import { type AnswerSlots, answerSlots } from './vote.ts';

export const SELECTOR_FEATURES = ['intercept', 'voteShare', 'lowestEnergy', 'meanEnergy', 'logCount'] as const;
/** The prior's vote-share coefficient. */
export const SHARE_PRIOR = 5;
export const SELECTOR_PRIOR: readonly number[] = [0, SHARE_PRIOR, 0, 0, 0];
/** Pull of every coefficient but the intercept towards the prior (the intercept gets a token one, for a unique fit). */
export const SELECTOR_PENALTY = 10;
export const SELECTOR_PENALTIES: readonly number[] = [0.01, SELECTOR_PENALTY, SELECTOR_PENALTY, SELECTOR_PENALTY, SELECTOR_PENALTY];
export const NONFINITE_Z = 3;
/** Scores this close (absolute) tie: the same features give the same score, summed in another order in Python. */
const SCORE_TIE = 1e-9;

const D = SELECTOR_FEATURES.length;

/** Each candidate's energy standardised within its question (0 when they cannot be told apart). */
function standardised(energies: ArrayLike<number>): Float64Array {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < energies.length; i++) {
    const e = rankKey(energies[i]);
    if (e !== Infinity) {
      n++;
      sum += e;
    }
  }
  const mean = n > 0 ? sum / n : 0;
  let ss = 0;
  for (let i = 0; i < energies.length; i++) {
    const e = rankKey(energies[i]);
    if (e !== Infinity) ss += (e - mean) ** 2;
  }
  const std = n > 0 ? Math.sqrt(ss / n) : 0;
  return Float64Array.from(energies, (x) => {
    const e = rankKey(x);
    if (e === Infinity) return NONFINITE_Z;
    return std > 0 ? (e - mean) / std : 0;
  });
}

/** One question's answers as rows of features (row-major, slot order) and their slots. */
export function answerFeatures(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>, labels: ArrayLike<number>): { slots: AnswerSlots; x: Float64Array } {
  const slots = answerSlots(answers, labels);
  const z = standardised(energies);
  const k = slots.votes.length;
  const x = new Float64Array(k * D);
  const lowest = new Float64Array(k).fill(Infinity);
  const sum = new Float64Array(k);
  for (let i = 0; i < z.length; i++) {
    const a = slots.slot[i];
    if (a < 0) continue;
    lowest[a] = Math.min(lowest[a], z[i]);
    sum[a] += z[i];
  }
  for (let a = 0; a < k; a++) {
    x.set([1, slots.votes[a] / answers.length, lowest[a], sum[a] / slots.votes[a], Math.log(slots.votes[a])], a * D);
  }
  return { slots, x };
}

/** The selector's coefficients (SELECTOR_FEATURES order) fitted on these questions' answers. */
export function fitSelector(groups: ReadonlyArray<ScoredGroup>): Float64Array {
  const xs: Float64Array[] = [];
  const ys: number[] = [];
  for (const g of groups) {
    const { slots, x } = answerFeatures(g.answers, g.energies, g.labels);
    xs.push(x);
    for (let a = 0; a < slots.votes.length; a++) ys.push(slots.correct[a] / slots.votes[a]);
  }
  const x = new Float64Array(ys.length * D);
  let offset = 0;
  for (const part of xs) {
    x.set(part, offset);
    offset += part.length;
  }
  return fitLogistic(x, ys, SELECTOR_PENALTIES, SELECTOR_PRIOR);
}

/** Each answer's probability of being right under `beta` (slot order). */
export function selectorProbabilities(x: Float64Array, beta: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: x.length / D }, (_, a) => sigmoid(linear(x, a, beta)));
}

/** The selector's pick in one question: expected accuracy over tied answers, and their mean probability (0, 0 without answers). */
export function selectorPick(g: ScoredGroup, beta: ArrayLike<number>): { score: number; probability: number } {
  const { slots, x } = answerFeatures(g.answers, g.energies, g.labels);
  const k = slots.votes.length;
  if (k === 0) return { score: 0, probability: 0 };
  const z = Float64Array.from({ length: k }, (_, a) => linear(x, a, beta));
  let top = -Infinity;
  for (const v of z) top = Math.max(top, v);
  let tied = 0;
  let score = 0;
  let probability = 0;
  for (let a = 0; a < k; a++) {
    if (z[a] >= top - SCORE_TIE) {
      tied++;
      score += slots.correct[a] / slots.votes[a];
      probability += sigmoid(z[a]);
    }
  }
  return { score: score / tied, probability: probability / tied };
}
