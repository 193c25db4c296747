/**
 * Whether one rule beats another on the same questions: an exact paired sign-flip (permutation) test on the
 * per-question differences, valid with few differing questions, and Holm's adjustment when a rule is chosen
 * among several. The bootstrap's intervals (bootstrap.ts) show the size; this test decides "real".
 *
 * Under "no difference" each question's difference is as likely to carry either sign, so the observed sum is
 * compared with the sums of every sign assignment of the non-zero differences (fractional where ties count as
 * shares). Up to SIGN_FLIP_EXACT_MAX of them every assignment is enumerated (4 wins and 0 losses: p = 2/16);
 * beyond, SIGN_FLIP_DRAWS assignments are drawn from one fixed stream, independent of the report's seed, and
 * p = (1 + as extreme) / (1 + draws), which is valid as it stands. The Python twin (python/eorm/metrics/paired_test.py)
 * enumerates and draws in the same order.
 */
import { createRng } from '../shared/rng.ts';

export const SIGN_FLIP_EXACT_MAX = 20;
export const SIGN_FLIP_DRAWS = 10_000;
/** The draws' stream: fixed, so that a file's verdict does not depend on the seed the user picked. */
export const SIGN_FLIP_STREAM = 0x5f3759df;
/** Differences this small are zero (ties scored as shares differ in the last bits between engines). */
export const DIFFERENCE_EPSILON = 1e-12;
/** Sums this close count as equal (sums of the same shares in another sign order). */
const SUM_TOLERANCE = 1e-9;
export const SIGNIFICANCE = 0.05;

export interface PairedTest {
  /** Questions whose difference is not zero. */
  differing: number;
  /** Two-sided p-value of "no difference". */
  p: number;
  /** 'exact' when every sign assignment was counted, else 'drawn'. */
  method: 'exact' | 'drawn';
}

/** The non-zero differences, in question order. */
function nonZero(diffs: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < diffs.length; i++) if (Math.abs(diffs[i]) > DIFFERENCE_EPSILON) out.push(diffs[i]);
  return out;
}

export function signFlipTest(diffs: ArrayLike<number>): PairedTest {
  const d = nonZero(diffs);
  const m = d.length;
  if (m === 0) return { differing: 0, p: 1, method: 'exact' };
  let observed = 0;
  for (const x of d) observed += x;
  const bar = Math.abs(observed) - SUM_TOLERANCE;
  if (m <= SIGN_FLIP_EXACT_MAX) {
    // Every sum of ±|d_1| ± … ± |d_m|, built by doubling (sums run left to right, as in Python).
    let sums = new Float64Array(1);
    for (const x of d) {
      const a = Math.abs(x);
      const next = new Float64Array(sums.length * 2);
      for (let i = 0; i < sums.length; i++) {
        next[i] = sums[i] + a;
        next[sums.length + i] = sums[i] - a;
      }
      sums = next;
    }
    let extreme = 0;
    for (const s of sums) if (Math.abs(s) >= bar) extreme++;
    return { differing: m, p: extreme / sums.length, method: 'exact' };
  }
  const rng = createRng(SIGN_FLIP_STREAM);
  let extreme = 0;
  for (let b = 0; b < SIGN_FLIP_DRAWS; b++) {
    let s = 0;
    for (const x of d) s += rng.int(2) === 0 ? Math.abs(x) : -Math.abs(x);
    if (Math.abs(s) >= bar) extreme++;
  }
  return { differing: m, p: (1 + extreme) / (1 + SIGN_FLIP_DRAWS), method: 'drawn' };
}

/**
 * Holm's step-down adjustment: the family-wise error stays at the level however many rules are compared.
 * Adjusted p of the i-th smallest (0-based) = max over j ≤ i of min(1, (m − j) · p_(j)); ties keep input order.
 */
export function holm(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((a, b) => p[a] - p[b] || a - b);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach((i, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p[i]));
    out[i] = running;
  });
  return out;
}
