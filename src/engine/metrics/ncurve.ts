/**
 * Accuracy against the number of candidates N (Figure 3 of the EORM paper): how well each picker
 * does when it only sees N of a question's candidates.
 *
 * For each N and each group with at least N candidates:
 * - if C(size, N) ≤ subsetsPerN, every N-subset is enumerated once (an exact expectation, no seed involved);
 * - otherwise subsetsPerN subsets are drawn uniformly at random (each without replacement inside,
 *   independently of each other), from one createRng(seed) stream, so a seed fixes the whole curve.
 * Subset indices stay in candidate order, so tie rules (first-seen answer on vote ties; the share of
 * correct candidates among tied lowest energies) match the full group: at N = size the row is exactly
 * the full-group result of evaluateGroups.
 * Scores are averaged over the subsets of a group, then over groups (every group weighs the same).
 *
 * Caveat: only groups with ≥ N candidates contribute at N, so when group sizes differ a row mixes a
 * different population than its neighbours; read `nGroups`. With equal sizes and exact enumeration
 * the oracle is non-decreasing in N.
 */
import { majorityVoteIndex, weightedVoteIndex } from './vote.ts';
import { bestOfNScore } from './rank.ts';
import { assertGroup, type ScoredGroup } from './summary.ts';
import { createRng, type Rng } from '../data/rng.ts';

export interface NCurveOptions {
  seed: number;
  /** Subsets per group and N (positive integer); also the enumeration threshold on C(size, N). */
  subsetsPerN: number;
}

export interface NCurveRow {
  n: number;
  /** Groups with ≥ n candidates, i.e. contributing to this row. */
  nGroups: number;
  /** Of those, groups whose subsets were enumerated exactly rather than sampled. */
  exactGroups: number;
  /** Model Best-of-N: label of the lowest-energy candidate in the subset (ties: share of correct among the tied). */
  model: number;
  /** Label of the subset's majority-vote winner; no answer counts as wrong. */
  majorityVote: number;
  /** Label of the subset's energy-weighted-vote winner; no answer counts as wrong. */
  weightedVote: number;
  /** Expected accuracy of a random pick: share of correct candidates in the subset. */
  random: number;
  /** 1 if the subset holds any correct candidate. */
  oracle: number;
}

/** N = 1, 2, 4, … ≤ maxSize, plus maxSize itself when it is not a power of two; [] for maxSize < 1. */
export function curveSizes(maxSize: number): number[] {
  const ns: number[] = [];
  for (let n = 1; n <= maxSize; n *= 2) ns.push(n);
  if (ns.length > 0 && ns[ns.length - 1] !== maxSize) ns.push(maxSize);
  return ns;
}

/** C(m, k), or cap + 1 as soon as it exceeds cap (so huge groups never overflow). */
function binomialCapped(m: number, k: number, cap: number): number {
  k = Math.min(k, m - k);
  let c = 1;
  // After step i, c = C(m − k + i, i): an integer at every step, so the division is exact.
  for (let i = 1; i <= k; i++) {
    c = (c * (m - k + i)) / i;
    if (c > cap) return cap + 1;
  }
  return c;
}

/** Visit every k-subset of 0..m-1 in lexicographic order (the array is reused between calls). */
function forEachCombination(m: number, k: number, visit: (idx: Int32Array) => void): void {
  const idx = Int32Array.from({ length: k }, (_, i) => i);
  for (;;) {
    visit(idx);
    let i = k - 1;
    while (i >= 0 && idx[i] === m - k + i) i--;
    if (i < 0) return;
    idx[i]++;
    for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
  }
}

/** Visit `count` uniform random k-subsets of 0..m-1, each sorted ascending. */
function forEachSample(m: number, k: number, count: number, rng: Rng, visit: (idx: Int32Array) => void): void {
  const perm = Int32Array.from({ length: m }, (_, i) => i);
  for (let s = 0; s < count; s++) {
    // Partial Fisher–Yates: the first k slots become a uniform k-subset whatever order perm is left in.
    for (let i = 0; i < k; i++) {
      const j = i + rng.int(m - i);
      const t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    visit(perm.slice(0, k).sort());
  }
}

/** Best-of-N curve of the model and the baselines, one row per N in curveSizes(largest group). */
export function bestOfNCurve(groups: ReadonlyArray<ScoredGroup>, opts: NCurveOptions): NCurveRow[] {
  const { subsetsPerN } = opts;
  if (!Number.isInteger(subsetsPerN) || subsetsPerN < 1) {
    throw new RangeError(`subsetsPerN must be a positive integer, got ${subsetsPerN}`);
  }
  groups.forEach(assertGroup);
  const rng = createRng(opts.seed);
  let maxSize = 0;
  for (const g of groups) maxSize = Math.max(maxSize, g.energies.length);

  return curveSizes(maxSize).map((n) => {
    const row: NCurveRow = { n, nGroups: 0, exactGroups: 0, model: 0, majorityVote: 0, weightedVote: 0, random: 0, oracle: 0 };
    const e = new Float64Array(n);
    const l = new Uint8Array(n);
    const a = new Array<string | null>(n);
    for (const g of groups) {
      const m = g.energies.length;
      if (m < n) continue;
      const acc = { model: 0, majorityVote: 0, weightedVote: 0, random: 0, oracle: 0, subsets: 0 };
      const visit = (idx: Int32Array): void => {
        let nCorrect = 0;
        for (let i = 0; i < n; i++) {
          e[i] = g.energies[idx[i]];
          l[i] = g.labels[idx[i]];
          a[i] = g.answers[idx[i]];
          nCorrect += g.labels[idx[i]];
        }
        const label = (j: number): number => (j < 0 ? 0 : g.labels[idx[j]]);
        acc.model += bestOfNScore(e, l);
        acc.majorityVote += label(majorityVoteIndex(a));
        acc.weightedVote += label(weightedVoteIndex(a, e));
        acc.random += nCorrect / n;
        acc.oracle += nCorrect > 0 ? 1 : 0;
        acc.subsets++;
      };
      const total = binomialCapped(m, n, subsetsPerN);
      if (total <= subsetsPerN) {
        forEachCombination(m, n, visit);
        row.exactGroups++;
      } else forEachSample(m, n, subsetsPerN, rng, visit);
      row.nGroups++;
      row.model += acc.model / acc.subsets;
      row.majorityVote += acc.majorityVote / acc.subsets;
      row.weightedVote += acc.weightedVote / acc.subsets;
      row.random += acc.random / acc.subsets;
      row.oracle += acc.oracle / acc.subsets;
    }
    // Every row has ≥ 1 group (some group has maxSize ≥ n), so these divisions are safe.
    row.model /= row.nGroups;
    row.majorityVote /= row.nGroups;
    row.weightedVote /= row.nGroups;
    row.random /= row.nGroups;
    row.oracle /= row.nGroups;
    return row;
  });
}
