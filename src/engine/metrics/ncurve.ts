/**
 * Accuracy against the number of candidates N (Figure 3 of the EORM paper) for every selection rule, as
 * the PRM800K evaluation reports it: each point the mean over random subsets of size N, with a band.
 *
 * For each N (curveSizes) the curve runs `trials` trials. A trial draws one uniform random N-subset of
 * every group with at least N candidates (a group of exactly N takes all of them), scores each rule on
 * it, and averages over those groups: one accuracy per rule and trial. A row is the mean of its trials and
 * the 2.5th–97.5th percentile band of them (linear interpolation between order statistics), i.e. how much
 * the figure moves with which N candidates a question happened to get; it is not an interval over
 * questions (the bootstrap in selection.ts is). A row without any sampled group is computed once: its
 * band is a point, and at N = every group's size it is exactly the full-group evaluation.
 *
 * Rules score ties as everywhere else: Best-of-N the share of correct candidates among the tied lowest
 * energies; the votes a random pick among the tied answers, each answer correct with the share of its
 * candidates labelled correct (vote.ts). python/eorm/metrics/ncurve.py is the twin, draw for draw.
 *
 * Every subset comes from one createRng(seed) stream in the order N, trial, group, so a seed fixes the
 * whole curve. Caveat: only groups with ≥ N candidates contribute at N, so when group sizes differ a
 * row mixes a different population than its neighbours; read `nGroups`.
 */
import { majorityVoteScore, weightedVoteScore } from './vote.ts';
import { bestOfNScore } from './rank.ts';
import { assertGroup, type ScoredGroup } from './summary.ts';
import { createRng, type Rng } from '../shared/rng.ts';

export interface NCurveOptions {
  seed: number;
  /** Trials per N (positive integer): random subsets drawn per group and N. */
  subsetsPerN: number;
  /** Temperature of the energy-weighted vote (softmax(−E/T)); default 1. */
  temperature?: number;
}

export const CURVE_RULES = ['model', 'majorityVote', 'weightedVote', 'random', 'oracle'] as const;
export type CurveRule = (typeof CURVE_RULES)[number];

/** The 2.5th and 97.5th percentiles of a rule's trial accuracies. */
export interface CurveBand {
  lo: number;
  hi: number;
}

export interface NCurveRow {
  n: number;
  /** Groups with ≥ n candidates, i.e. contributing to this row. */
  nGroups: number;
  /** Of those, groups of exactly n candidates: their subset is the whole group, nothing is sampled. */
  exactGroups: number;
  /** Trials behind the mean and band (1 when no group is sampled). */
  trials: number;
  /** Best-of-N: the lowest-energy candidate of the subset (ties: share of correct among the tied). */
  model: number;
  /** Majority vote over the subset's answers (ties: mean share over the tied answers); no answer counts as wrong. */
  majorityVote: number;
  /** Energy-weighted vote at the curve's temperature (same tie rule); no answer counts as wrong. */
  weightedVote: number;
  /** Expected accuracy of a random pick: share of correct candidates in the subset. */
  random: number;
  /** 1 if the subset holds any correct candidate. */
  oracle: number;
  band: Record<CurveRule, CurveBand>;
}

/** N = 1, 2, 4, … ≤ maxSize, plus maxSize itself when it is not a power of two; [] for maxSize < 1. */
export function curveSizes(maxSize: number): number[] {
  const ns: number[] = [];
  for (let n = 1; n <= maxSize; n *= 2) ns.push(n);
  if (ns.length > 0 && ns[ns.length - 1] !== maxSize) ns.push(maxSize);
  return ns;
}

/** The p-quantile of ascending `sorted` (linear between order statistics, numpy's default). */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** A uniform random k-subset of 0..m-1, ascending (partial Fisher–Yates from the identity). */
function drawSubset(m: number, k: number, rng: Rng): Int32Array {
  const perm = Int32Array.from({ length: m }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(m - i);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  return perm.slice(0, k).sort();
}

type RuleScores = Record<CurveRule, number>;

function scoreSubset(g: ScoredGroup, idx: ArrayLike<number>, temperature: number): RuleScores {
  const n = idx.length;
  const e = new Float64Array(n);
  const l = new Uint8Array(n);
  const a = new Array<string | null>(n);
  let nCorrect = 0;
  for (let i = 0; i < n; i++) {
    e[i] = g.energies[idx[i]];
    l[i] = g.labels[idx[i]];
    a[i] = g.answers[idx[i]];
    nCorrect += l[i];
  }
  return {
    model: bestOfNScore(e, l),
    majorityVote: majorityVoteScore(a, l),
    weightedVote: weightedVoteScore(a, e, l, temperature),
    random: nCorrect / n,
    oracle: nCorrect > 0 ? 1 : 0,
  };
}

const zeros = (): RuleScores => ({ model: 0, majorityVote: 0, weightedVote: 0, random: 0, oracle: 0 });

/** Every rule's accuracy against N, one row per N in curveSizes(largest group). */
export function bestOfNCurve(groups: ReadonlyArray<ScoredGroup>, opts: NCurveOptions): NCurveRow[] {
  const { subsetsPerN } = opts;
  const temperature = opts.temperature ?? 1;
  if (!Number.isInteger(subsetsPerN) || subsetsPerN < 1) {
    throw new RangeError(`subsetsPerN must be a positive integer, got ${subsetsPerN}`);
  }
  if (!(temperature > 0)) throw new RangeError(`temperature must be positive, got ${temperature}`);
  groups.forEach(assertGroup);
  const rng = createRng(opts.seed);
  let maxSize = 0;
  for (const g of groups) maxSize = Math.max(maxSize, g.energies.length);

  return curveSizes(maxSize).map((n) => {
    const members = groups.filter((g) => g.energies.length >= n);
    // A group of exactly n scores the same in every trial: once.
    const whole = members.map((g) =>
      g.energies.length === n
        ? scoreSubset(
            g,
            Int32Array.from({ length: n }, (_, i) => i),
            temperature,
          )
        : null,
    );
    const exactGroups = whole.filter((w) => w !== null).length;
    const trials = exactGroups === members.length ? 1 : subsetsPerN;
    const perTrial: Record<CurveRule, Float64Array> = {
      model: new Float64Array(trials),
      majorityVote: new Float64Array(trials),
      weightedVote: new Float64Array(trials),
      random: new Float64Array(trials),
      oracle: new Float64Array(trials),
    };
    for (let t = 0; t < trials; t++) {
      const sum = zeros();
      members.forEach((g, k) => {
        const s = whole[k] ?? scoreSubset(g, drawSubset(g.energies.length, n, rng), temperature);
        for (const r of CURVE_RULES) sum[r] += s[r];
      });
      // Every row has ≥ 1 group (some group has maxSize ≥ n), so the division is safe.
      for (const r of CURVE_RULES) perTrial[r][t] = sum[r] / members.length;
    }
    const row = { n, nGroups: members.length, exactGroups, trials, ...zeros(), band: {} as Record<CurveRule, CurveBand> };
    for (const r of CURVE_RULES) {
      const xs = perTrial[r];
      let total = 0;
      for (const x of xs) total += x;
      row[r] = total / trials;
      const sorted = xs.slice().sort();
      row.band[r] = { lo: quantile(sorted, 0.025), hi: quantile(sorted, 0.975) };
    }
    return row;
  });
}
