/**
 * Ranking one group of candidates by energy (lower = better). No imports: pure math.
 *
 * NaN energies (a diverged model) are ranked as +Infinity: they never win and sort last,
 * so one bad score cannot silently become "the best answer".
 */

/** Sort key: NaN behaves like +Infinity. */
function key(e: number): number {
  return Number.isNaN(e) ? Infinity : e;
}

/**
 * Index of the lowest-energy candidate; ties go to the first such candidate (strict '<').
 * Returns 0 when every energy is NaN/+Infinity and -1 for an empty group.
 */
export function argminEnergy(energies: ArrayLike<number>): number {
  if (energies.length === 0) return -1;
  let best = 0;
  let bestE = key(energies[0]);
  for (let i = 1; i < energies.length; i++) {
    const e = key(energies[i]);
    if (e < bestE) {
      bestE = e;
      best = i;
    }
  }
  return best;
}

/** The Inspect panel's view of one group. */
export interface RankedGroup {
  /** Candidate indices by ascending energy; equal energies keep candidate order (stable). */
  order: number[];
  /** Per candidate (same indexing as the input, not rank order): E_i − min E, so the best has 0. NaN for a NaN energy. */
  deltaToBest: number[];
  /** Per candidate (input order): softmax(−E)_i, summing to 1. 0 for a NaN energy; all NaN if the lowest energy is not finite. */
  share: number[];
}

/**
 * Rank a group for display. Arrays other than `order` are indexed by candidate so they stay aligned
 * with labels/answers/texts; read row k of a ranked table as `deltaToBest[order[k]]`.
 */
export function rankGroup(energies: ArrayLike<number>): RankedGroup {
  const n = energies.length;
  const keys = Array.from({ length: n }, (_, i) => key(energies[i]));
  // Explicit index tie-break: stability does not depend on the engine's sort.
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  const minE = n > 0 ? keys[order[0]] : NaN;
  const deltaToBest = Array.from({ length: n }, (_, i) => energies[i] - minE);
  // Shifting by the minimum puts the largest exponent at exp(0) = 1: no overflow, and the sum is ≥ 1.
  const w = keys.map((e) => Math.exp(-(e - minE)));
  let z = 0;
  for (const x of w) z += x;
  const share = w.map((x) => x / z);
  return { order, deltaToBest, share };
}
