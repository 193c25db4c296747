/**
 * Know your generators: a vote in which each answer counts by how often its generator (the lines' `source`)
 * is right. Under the one-coin model of Dawid & Skene (1979) a generator s is right with probability p_s and,
 * when wrong, writes one of K − 1 wrong answers alike; an answer's log-posterior is then the sum over its
 * candidates of w_s = log(p_s (K − 1) / (1 − p_s)), and the vote picks the heaviest answer.
 *
 * Reliabilities come from labels (fitLabelledGenerators: each generator's share of correct answers on the
 * training questions, pulled towards the pooled share by GENERATOR_PRIOR_ANSWERS pseudo-answers, K chosen
 * among GENERATOR_ALTERNATIVES by cross-fitting over those questions) or from agreement alone
 * (generatorAgreement.ts). A weight is floored at WEIGHT_FLOOR: with equal weights (one source, or none) the
 * vote is majority vote exactly. python/eorm/metrics/generators.py is the twin, operation for operation.
 */
import { CROSS_FIT_FOLDS, crossFitFolds } from '../folds.ts';
import { type AnswerSlots, answerSlots, majorityVotePick } from '../vote.ts';

/** Pseudo-answers at the pooled share: a generator seen on a handful of answers keeps near the pooled weight. */
export const GENERATOR_PRIOR_ANSWERS = 4;
/** The number of alternatives K a wrong answer spreads over: the weights' scale, fitted out of sample. */
export const GENERATOR_ALTERNATIVES: readonly number[] = [2, 3, 5, 10, 20, 50, 100];
export const RELIABILITY_FLOOR = 1e-3;
/** A generator right less often than one in K still votes, barely: negative weights would turn a one-source vote upside down. */
export const WEIGHT_FLOOR = 0.01;
/** Masses this close (relative) tie: sums of logs differ in the last bits between engines. */
const MASS_TIE = 1e-9;

export interface GeneratorWeights {
  /** 'labels': reliabilities are correct shares on training questions; 'agreement': estimated without labels. */
  method: 'labels' | 'agreement';
  names: string[];
  /** Estimated probability each generator is right (names order). */
  reliability: number[];
  /** Candidates each estimate came from. */
  answers: number[];
  /** The pooled rate: the weight of a generator never seen, or of a candidate without a source. */
  pooled: number;
  /** K, the alternatives a wrong answer spreads over. */
  alternatives: number;
}

/** One question for a generator fit: answers, labels (ignored by the agreement fit) and sources (index into names, −1 none). */
export interface SourcedAnswers {
  answers: ReadonlyArray<string | null>;
  labels: ArrayLike<number>;
  sources: ArrayLike<number>;
}

const clamp = (p: number): number => Math.min(1 - RELIABILITY_FLOOR, Math.max(RELIABILITY_FLOOR, p));

export const voteWeight = (p: number, alternatives: number): number => Math.max(WEIGHT_FLOOR, Math.log(p) - Math.log(1 - p) + Math.log(alternatives - 1));

/** Smoothed rates from per-source sums: (hits + prior · pooled) / (count + prior). */
export function smoothedRates(hits: ArrayLike<number>, counts: ArrayLike<number>, pooled: number): number[] {
  return Array.from({ length: counts.length }, (_, s) => clamp((hits[s] + GENERATOR_PRIOR_ANSWERS * pooled) / (counts[s] + GENERATOR_PRIOR_ANSWERS)));
}

/** Distinct sources named among these questions' candidates. */
export function sourceCount(groups: ReadonlyArray<SourcedAnswers>): number {
  const seen = new Set<number>();
  for (const g of groups) for (let i = 0; i < g.sources.length; i++) if (g.sources[i] >= 0) seen.add(g.sources[i]);
  return seen.size;
}

/** Smoothed rates per source from each candidate's hit in [0, 1] (`hit(q, i)`), over the questions `use` keeps; the pooled rate over every candidate. */
export function sourceRates(
  groups: ReadonlyArray<SourcedAnswers>,
  sources: number,
  hit: (q: number, i: number) => number,
  use: (q: number) => boolean = () => true,
): { rates: number[]; counts: Float64Array; pooled: number } {
  const hits = new Float64Array(sources);
  const counts = new Float64Array(sources);
  let allHits = 0;
  let all = 0;
  groups.forEach((g, q) => {
    if (!use(q)) return;
    for (let i = 0; i < g.sources.length; i++) {
      const h = hit(q, i);
      allHits += h;
      all++;
      const s = g.sources[i];
      if (s < 0) continue;
      hits[s] += h;
      counts[s]++;
    }
  });
  const pooled = clamp(all > 0 ? allHits / all : 0.5);
  return { rates: smoothedRates(hits, counts, pooled), counts, pooled };
}

/** Per candidate, its generator's vote weight (the pooled one for a candidate without a known source). */
export function candidateWeights(w: GeneratorWeights, sourceNames: ReadonlyArray<string | null>): Float64Array {
  const index = new Map(w.names.map((n, s) => [n, s]));
  const pooled = voteWeight(w.pooled, w.alternatives);
  return Float64Array.from(sourceNames, (n) => {
    const s = n === null ? undefined : index.get(n);
    return s === undefined ? pooled : voteWeight(w.reliability[s], w.alternatives);
  });
}

/** Each answer's summed weight, in slot order. */
export function answerMass(slots: AnswerSlots, weights: ArrayLike<number>): Float64Array {
  const mass = new Float64Array(slots.votes.length);
  for (let i = 0; i < slots.slot.length; i++) if (slots.slot[i] >= 0) mass[slots.slot[i]] += weights[i];
  return mass;
}

/** Each answer's posterior under the one-coin model: softmax of its mass over the question's answers (slot order). */
export function answerPosterior(mass: ArrayLike<number>): Float64Array {
  let top = -Infinity;
  for (let k = 0; k < mass.length; k++) top = Math.max(top, mass[k]);
  const out = Float64Array.from(mass, (m) => Math.exp(m - top));
  let z = 0;
  for (const x of out) z += x;
  for (let k = 0; k < out.length; k++) out[k] /= z;
  return out;
}

/** The generator-weighted vote in one question: expected accuracy over tied answers, and the picked answer's posterior (0, 0 without answers). */
export function generatorVotePick(slots: AnswerSlots, weights: ArrayLike<number>): { score: number; probability: number } {
  const mass = answerMass(slots, weights);
  if (mass.length === 0) return { score: 0, probability: 0 };
  let top = -Infinity;
  for (const m of mass) top = Math.max(top, m);
  const posterior = answerPosterior(mass);
  let tied = 0;
  let score = 0;
  let probability = 0;
  for (let k = 0; k < mass.length; k++) {
    if (mass[k] >= top - MASS_TIE * Math.max(1, Math.abs(top))) {
      tied++;
      score += slots.correct[k] / slots.votes[k];
      probability += posterior[k];
    }
  }
  return { score: score / tied, probability: probability / tied };
}

/** The generator-weighted vote's score with these weights; majority vote's where the generators are not known. */
export const generatorVoteScore = (slots: AnswerSlots, weights: ArrayLike<number> | null | undefined): number =>
  weights ? generatorVotePick(slots, weights).score : majorityVotePick(slots);

/** Per-candidate weights of a question from per-source weights (`bySource`), `pooledWeight` for a candidate without a source. */
export function weightsOf(sources: ArrayLike<number>, bySource: ArrayLike<number>, pooledWeight: number): Float64Array {
  return Float64Array.from({ length: sources.length }, (_, i) => (sources[i] >= 0 ? bySource[sources[i]] : pooledWeight));
}

/**
 * Reliabilities from the labels of `groups` (training questions), K by cross-fitting over them: for each K,
 * the vote's accuracy on each fold with rates from the other folds; the most accurate K (ties: the smaller).
 * Null with fewer than two sources: the vote is then majority vote.
 */
export function fitLabelledGenerators(groups: ReadonlyArray<SourcedAnswers>, names: readonly string[], seed: number): GeneratorWeights | null {
  if (sourceCount(groups) < 2) return null;
  const slots = groups.map((g) => answerSlots(g.answers, g.labels));
  const label = (q: number, i: number) => groups[q].labels[i];
  const fold = crossFitFolds(groups.length, seed);
  const folds = Math.min(CROSS_FIT_FOLDS, groups.length);
  const perFold = Array.from({ length: folds }, (_, f) => sourceRates(groups, names.length, label, (q) => fold[q] !== f));
  let best = GENERATOR_ALTERNATIVES[0];
  let bestScore = -Infinity;
  for (const k of GENERATOR_ALTERNATIVES) {
    let score = 0;
    groups.forEach((g, q) => {
      const r = perFold[fold[q] % folds];
      const w = weightsOf(
        g.sources,
        r.rates.map((p) => voteWeight(p, k)),
        voteWeight(r.pooled, k),
      );
      score += generatorVotePick(slots[q], w).score;
    });
    if (score > bestScore + 1e-9) {
      bestScore = score;
      best = k;
    }
  }
  const all = sourceRates(groups, names.length, label);
  return { method: 'labels', names: [...names], reliability: all.rates, answers: Array.from(all.counts), pooled: all.pooled, alternatives: best };
}
