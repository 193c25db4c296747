/**
 * The learned selector: per distinct final answer of a question, a penalised logistic model of "this
 * answer is right" over what the votes say and what the verifier says, and the pick is the answer it
 * rates highest. Features (SELECTOR_FEATURES): the answer's share of the question's candidates, the
 * lowest and the mean standardised energy of its candidates (energy minus the question's mean, over the
 * question's standard deviation: free of the model's energy scale), log of its candidate count, and its
 * posterior under the generator-weighted vote (generators.ts: labelled weights where known, else those learned
 * from agreement; 0 where the question's candidates name no generator, so the coefficient stays at its prior),
 * then one feature per numeric field of the lines the user named (another reward model's `score`, a mean
 * `logprob`: ScoredGroup.fields): the mean over the answer's candidates of the field standardised within the
 * question, a line without the field counting as the question's mean. Its sign is fitted: no direction needed.
 * Candidates with a non-finite energy count as NONFINITE_Z (rank.ts ranks them last).
 *
 * The penalty pulls every coefficient but the intercept towards a prior in which only the vote share
 * matters (SHARE_PRIOR: on real data a share of 0.8 is right about 9 times in 10, one of 0.2 about once in
 * 5): with few questions the selector ranks answers by vote share, majority vote, and only data that shows
 * the energy helps moves it away. Fitted only on held-out questions, out of fold for every figure (crossFit.ts). The Python twin is
 * python/eorm/selection.py.
 */
import { answerMass, answerPosterior } from './generators/generators.ts';
import { fitLogistic, linear, sigmoid } from './logistic.ts';
import { rankKey } from './rank.ts';
import type { ScoredGroup } from './summary.ts';
import { type AnswerSlots, answerSlots } from './vote.ts';

/** The features every selector has; each named field adds one after them. */
export const SELECTOR_FEATURES = ['intercept', 'voteShare', 'lowestEnergy', 'meanEnergy', 'logCount', 'generatorShare'] as const;
/** The prior's vote-share coefficient. */
export const SHARE_PRIOR = 5;
/** Pull of every coefficient but the intercept towards the prior (the intercept gets a token one, for a unique fit). */
export const SELECTOR_PENALTY = 10;
export const NONFINITE_Z = 3;
/** Scores this close (absolute) tie: the same features give the same score, summed in another order in Python. */
const SCORE_TIE = 1e-9;

const BASE = SELECTOR_FEATURES.length;

/** The prior with `fields` named fields: only the vote share matters, a field's coefficient 0. */
const selectorPrior = (fields: number): Float64Array => Float64Array.from({ length: BASE + fields }, (_, j) => (j === 1 ? SHARE_PRIOR : 0));
const selectorPenalties = (fields: number): Float64Array => Float64Array.from({ length: BASE + fields }, (_, j) => (j === 0 ? 0.01 : SELECTOR_PENALTY));

/** Mean and population standard deviation of the values `keep` takes (mapped by it), summed in order; 0, 0 for none. */
function meanStd(values: ArrayLike<number>, keep: (v: number) => number | null): { mean: number; std: number } {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = keep(values[i]);
    if (v !== null) {
      n++;
      sum += v;
    }
  }
  const mean = n > 0 ? sum / n : 0;
  let ss = 0;
  for (let i = 0; i < values.length; i++) {
    const v = keep(values[i]);
    if (v !== null) ss += (v - mean) ** 2;
  }
  return { mean, std: n > 0 ? Math.sqrt(ss / n) : 0 };
}

/** Each candidate's named field standardised within its question; a missing (NaN) value counts as the mean, 0. */
function standardisedField(values: ArrayLike<number>): Float64Array {
  const { mean, std } = meanStd(values, (v) => (Number.isFinite(v) ? v : null));
  return Float64Array.from(values, (v) => (Number.isFinite(v) && std > 0 ? (v - mean) / std : 0));
}

/** Each candidate's energy standardised within its question (0 when they cannot be told apart). */
function standardised(energies: ArrayLike<number>): Float64Array {
  const { mean, std } = meanStd(energies, (x) => {
    const e = rankKey(x);
    return e === Infinity ? null : e;
  });
  return Float64Array.from(energies, (x) => {
    const e = rankKey(x);
    if (e === Infinity) return NONFINITE_Z;
    return std > 0 ? (e - mean) / std : 0;
  });
}

/** The per-candidate generator weights the selector reads: labelled where known, else learned from agreement. */
export const selectorGeneratorWeights = (g: ScoredGroup): ArrayLike<number> | null => g.generators?.labelled ?? g.generators?.agreement ?? null;

/** One question's answers as rows of features (row-major, slot order) and their slots; `fields`: per named field, each candidate's value (NaN: none). */
export function answerFeatures(
  answers: ReadonlyArray<string | null>,
  energies: ArrayLike<number>,
  labels: ArrayLike<number>,
  generatorWeights: ArrayLike<number> | null = null,
  fields: ReadonlyArray<ArrayLike<number>> = [],
): { slots: AnswerSlots; x: Float64Array } {
  const slots = answerSlots(answers, labels);
  const posterior = generatorWeights ? answerPosterior(answerMass(slots, generatorWeights)) : null;
  const z = standardised(energies);
  const k = slots.votes.length;
  const D = BASE + fields.length;
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
    x.set([1, slots.votes[a] / answers.length, lowest[a], sum[a] / slots.votes[a], Math.log(slots.votes[a]), posterior ? posterior[a] : 0], a * D);
  }
  fields.forEach((values, f) => {
    const v = standardisedField(values);
    for (let i = 0; i < v.length; i++) if (slots.slot[i] >= 0) x[slots.slot[i] * D + BASE + f] += v[i];
    for (let a = 0; a < k; a++) x[a * D + BASE + f] /= slots.votes[a];
  });
  return { slots, x };
}

/** A question's features as the selector reads them (its generator weights and named fields). */
export const groupFeatures = (g: ScoredGroup): { slots: AnswerSlots; x: Float64Array } =>
  answerFeatures(g.answers, g.energies, g.labels, selectorGeneratorWeights(g), g.fields ?? []);

/** How many named fields these questions carry (every question the same). */
const fieldCountOf = (groups: ReadonlyArray<ScoredGroup>): number => groups[0]?.fields?.length ?? 0;

/** Every answer of these questions as one row of features (row-major) and its target (share correct). */
function selectorRows(groups: ReadonlyArray<ScoredGroup>): { x: Float64Array; y: Float64Array } {
  const D = BASE + fieldCountOf(groups);
  const features = groups.map(groupFeatures);
  let rows = 0;
  for (const f of features) rows += f.slots.votes.length;
  const x = new Float64Array(rows * D);
  const y = new Float64Array(rows);
  let r = 0;
  for (const f of features) {
    x.set(f.x, r * D);
    for (let a = 0; a < f.slots.votes.length; a++, r++) y[r] = f.slots.correct[a] / f.slots.votes[a];
  }
  return { x, y };
}

/** The selector's coefficients (SELECTOR_FEATURES order, then the named fields) fitted on these questions' answers. */
export function fitSelector(groups: ReadonlyArray<ScoredGroup>): Float64Array {
  const { x, y } = selectorRows(groups);
  const fields = fieldCountOf(groups);
  return fitLogistic(x, y, selectorPenalties(fields), selectorPrior(fields));
}

/** Each answer's probability of being right under `beta` (slot order). */
export function selectorProbabilities(x: Float64Array, beta: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: x.length / beta.length }, (_, a) => sigmoid(linear(x, a, beta)));
}

/** The selector's pick in one question: expected accuracy over tied answers, and their mean probability (0, 0 without answers). */
export function selectorPick(g: ScoredGroup, beta: ArrayLike<number>): { score: number; probability: number } {
  const { slots, x } = groupFeatures(g);
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
