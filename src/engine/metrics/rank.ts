/**
 * Ranking one group of candidates by energy (lower = better). No imports: pure math.
 *
 * One rule for non-finite energies (NaN, ±Infinity: a diverged model), wherever a ranking, a pick or a
 * vote weight is read: they rank as +Infinity. They never win over a finite energy and sort last, so a
 * bad score cannot silently become "the best answer"; candidates that are all non-finite are all tied.
 */

/** Sort key of an energy: itself when finite, else +Infinity. */
export function rankKey(e: number): number {
  return Number.isFinite(e) ? e : Infinity;
}

/**
 * Index of the lowest-energy candidate; ties go to the first such candidate (strict '<').
 * Returns 0 when every energy is non-finite and -1 for an empty group.
 */
export function argminEnergy(energies: ArrayLike<number>): number {
  if (energies.length === 0) return -1;
  let best = 0;
  let bestE = rankKey(energies[0]);
  for (let i = 1; i < energies.length; i++) {
    const e = rankKey(energies[i]);
    if (e < bestE) {
      bestE = e;
      best = i;
    }
  }
  return best;
}

/**
 * Best-of-N score of one group: the expected label of a pick made uniformly at random among the
 * candidates tied at the lowest energy (the label of the argmin when it is unique). Ties are common when
 * truncation makes inputs identical; crediting the first of them would score the first-candidate
 * baseline in disguise. NaN for an empty group.
 */
export function bestOfNScore(energies: ArrayLike<number>, labels: ArrayLike<number>): number {
  let min = Infinity;
  let tied = 0;
  let correct = 0;
  for (let i = 0; i < energies.length; i++) {
    const e = rankKey(energies[i]);
    if (e < min) {
      min = e;
      tied = 1;
      correct = labels[i];
    } else if (e === min) {
      tied++;
      correct += labels[i];
    }
  }
  return correct / tied;
}

/** The Inspect panel's view of one group. */
export interface RankedGroup {
  /** Candidate indices by ascending energy; equal energies keep candidate order (stable). */
  order: number[];
  /** Per candidate (same indexing as the input, not rank order): E_i − min E, so the best has 0. NaN for a non-finite energy. */
  deltaToBest: number[];
  /** Per candidate (input order): softmax(−E)_i, summing to 1. 0 for a non-finite energy; equal shares when all are non-finite. */
  share: number[];
}

/**
 * Rank a group for display. Arrays other than `order` are indexed by candidate so they stay aligned
 * with labels/answers/texts; read row k of a ranked table as `deltaToBest[order[k]]`.
 */
export function rankGroup(energies: ArrayLike<number>): RankedGroup {
  const n = energies.length;
  const keys = Array.from({ length: n }, (_, i) => rankKey(energies[i]));
  // Explicit index tie-break: stability does not depend on the engine's sort.
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  const minE = n > 0 ? keys[order[0]] : NaN;
  const deltaToBest = Array.from({ length: n }, (_, i) => (Number.isFinite(energies[i]) ? energies[i] - minE : NaN));
  // Shifting by the minimum puts the largest exponent at exp(0) = 1: no overflow, and the sum is ≥ 1.
  // All non-finite: all tied at +Infinity, hence equal weights.
  const w = keys.map((e) => (minE === Infinity ? 1 : Math.exp(-(e - minE))));
  let z = 0;
  for (const x of w) z += x;
  const share = w.map((x) => x / z);
  return { order, deltaToBest, share };
}
