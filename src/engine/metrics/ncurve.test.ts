import { describe, expect, it } from 'vitest';
import { bestOfNCurve, curveSizes, type NCurveRow } from './ncurve.ts';
import { evaluateGroups, type ScoredGroup } from './summary.ts';

/** Test-data generator (xorshift32): energies on a 0.25 grid so ties happen, labels consistent with answers. */
function makeGroups(sizes: number[], seed: number, signal = 0.5): ScoredGroup[] {
  let s = seed >>> 0 || 1;
  const rnd = (): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  return sizes.map((m) => {
    const energies: number[] = [];
    const labels: number[] = [];
    const answers: (string | null)[] = [];
    for (let i = 0; i < m; i++) {
      const ok = rnd() < 0.4;
      labels.push(ok ? 1 : 0);
      energies.push(Math.round((rnd() * 4 - (ok ? signal : 0)) * 4) / 4); // correct ones lower by `signal`
      answers.push(rnd() < 0.1 ? null : ok ? 'gold' : `w${Math.floor(rnd() * 3)}`);
    }
    return { energies, labels, answers };
  });
}

const col = (rows: NCurveRow[], k: keyof NCurveRow): number[] => rows.map((r) => r[k] as number);

describe('curveSizes', () => {
  it('powers of two up to the max, plus the max itself', () => {
    expect(curveSizes(0)).toEqual([]);
    expect(curveSizes(1)).toEqual([1]);
    expect(curveSizes(3)).toEqual([1, 2, 3]);
    expect(curveSizes(8)).toEqual([1, 2, 4, 8]);
    expect(curveSizes(12)).toEqual([1, 2, 4, 8, 12]);
  });
});

describe('bestOfNCurve on two hand-made groups (every subset enumerated)', () => {
  /*
   * A: E=[1,0,2] L=[0,1,0] A=[a,b,a]   B: E=[0,1] L=[1,0] A=[c,d]
   * A, N=1: {0} ✗, {1} ✓, {2} ✗ → every picker 1/3.
   * A, N=2:        model          majority         weighted (softmax(−E))   random  oracle
   *   {0,1} E 1,0  → 1 ✓          a,b tie → a ✗    b: 1 > a: e^-1 ✓        1/2     1
   *   {0,2} E 1,2  → 0 ✗          a ✗              a ✗                     0       0
   *   {1,2} E 0,2  → 1 ✓          b,a tie → b ✓    b: 1 > a: e^-2 ✓        1/2     1
   *   mean         2/3            1/3              2/3                     1/3     2/3
   * A, N=3: model ✓ 1; majority a (2 votes) ✗ 0; weighted a: e^-1+e^-2 ≈ 0.503 < b: 1 ✓ 1; random 1/3; oracle 1.
   * B, N=1: every picker 1/2.  B, N=2: model 0 ✓, majority tie → c ✓, weighted c ✓, random 1/2, oracle 1.
   * Rows (mean over contributing groups): N=1 all (1/3+1/2)/2 = 5/12;
   *   N=2 model (2/3+1)/2 = 5/6, majority (1/3+1)/2 = 2/3, weighted 5/6, random (1/3+1/2)/2 = 5/12, oracle 5/6;
   *   N=3 only A.
   */
  const groups: ScoredGroup[] = [
    { energies: [1, 0, 2], labels: [0, 1, 0], answers: ['a', 'b', 'a'] },
    { energies: [0, 1], labels: [1, 0], answers: ['c', 'd'] },
  ];
  // C(3,1) = C(3,2) = 3 and C(2,1) = 2 are all ≤ 3, so every subset is enumerated.
  const rows = bestOfNCurve(groups, { seed: 1, subsetsPerN: 3 });

  it('matches the hand computation', () => {
    expect(col(rows, 'n')).toEqual([1, 2, 3]);
    expect(col(rows, 'nGroups')).toEqual([2, 2, 1]);
    expect(col(rows, 'exactGroups')).toEqual([2, 2, 1]);
    const expected = {
      model: [5 / 12, 5 / 6, 1],
      majorityVote: [5 / 12, 2 / 3, 0],
      weightedVote: [5 / 12, 5 / 6, 1],
      random: [5 / 12, 5 / 12, 1 / 3],
      oracle: [5 / 12, 5 / 6, 1],
    } as const;
    for (const [k, v] of Object.entries(expected)) {
      col(rows, k as keyof NCurveRow).forEach((x, i) => expect(x, `${k}[${i}]`).toBeCloseTo(v[i], 12));
    }
  });

  it('exact enumeration does not depend on the seed', () => {
    expect(bestOfNCurve(groups, { seed: 999, subsetsPerN: 3 })).toEqual(rows);
  });

  it('samples when C(size, N) exceeds subsetsPerN', () => {
    // subsetsPerN 2 < C(3,1) = C(3,2) = 3: A is sampled at N = 1, 2; B (C(2,1) = 2) stays exact.
    expect(col(bestOfNCurve(groups, { seed: 1, subsetsPerN: 2 }), 'exactGroups')).toEqual([1, 1, 1]);
  });
});

describe('bestOfNCurve properties', () => {
  it('is deterministic for a seed and changes with the seed when sampling', () => {
    const groups = makeGroups([9, 12, 10, 12, 7, 11], 42);
    const a = bestOfNCurve(groups, { seed: 7, subsetsPerN: 5 });
    expect(a.some((r) => r.exactGroups < r.nGroups)).toBe(true); // sampling actually happened
    expect(bestOfNCurve(groups, { seed: 7, subsetsPerN: 5 })).toEqual(a);
    expect(bestOfNCurve(groups, { seed: 8, subsetsPerN: 5 })).not.toEqual(a);
  });

  it('the row at N = largest size is exactly the full-group evaluation of the largest groups', () => {
    const groups = makeGroups([5, 12, 9, 12, 12, 3, 8, 12, 10, 12], 3, 0); // no signal: the model errs
    const rows = bestOfNCurve(groups, { seed: 5, subsetsPerN: 7 });
    const last = rows[rows.length - 1];
    expect(col(rows, 'n')).toEqual([1, 2, 4, 8, 12]);
    const full = evaluateGroups(groups.filter((g) => g.energies.length === 12));
    expect(last.nGroups).toBe(full.nGroups); // 5
    expect(last.exactGroups).toBe(5);
    expect(full.bestOfN).toBeGreaterThan(0); // a non-trivial comparison
    expect(full.bestOfN).toBeLessThan(1);
    expect(last.model).toBe(full.bestOfN);
    expect(last.majorityVote).toBe(full.baselines.majorityVote);
    expect(last.weightedVote).toBe(full.baselines.weightedVote);
    expect(last.random).toBe(full.baselines.randomExpected);
    expect(last.oracle).toBe(full.baselines.oracle);
  });

  it('with equal sizes and exact enumeration: oracle non-decreasing, random flat at the group share', () => {
    const groups = makeGroups(Array(8).fill(6), 11);
    const rows = bestOfNCurve(groups, { seed: 0, subsetsPerN: 20 }); // max C(6, k) = C(6,3) = 20
    expect(col(rows, 'n')).toEqual([1, 2, 4, 6]);
    for (const r of rows) expect(r.exactGroups).toBe(8);
    const oracle = col(rows, 'oracle');
    for (let i = 1; i < oracle.length; i++) expect(oracle[i]).toBeGreaterThanOrEqual(oracle[i - 1] - 1e-12);
    // Every candidate is in the same share of N-subsets, so the expected share correct is the group's share.
    const share = evaluateGroups(groups).baselines.randomExpected;
    for (const r of rows) expect(r.random).toBeCloseTo(share, 12);
    // At N = 1 every picker is a uniform random pick.
    expect(rows[0].model).toBeCloseTo(share, 12);
    expect(rows[0].majorityVote).toBeLessThanOrEqual(share + 1e-12); // null answers count as wrong
  });

  it('sampled rows estimate the exact ones', () => {
    // size 20: C(20,4) = C(20,16) = 4845 and C(20,8) = 125970 > 4000 → sampled; the exact run enumerates all.
    const groups = makeGroups([20, 20, 20], 99);
    const exact = bestOfNCurve(groups, { seed: 0, subsetsPerN: 125970 });
    const sampled = bestOfNCurve(groups, { seed: 0, subsetsPerN: 4000 });
    expect(col(exact, 'exactGroups')).toEqual([3, 3, 3, 3, 3, 3]);
    expect(col(sampled, 'exactGroups')).toEqual([3, 3, 0, 0, 0, 3]);
    // 4000 draws per group: std of each group's mean ≤ 0.5/√4000 ≈ 0.008, so 0.03 is a wide margin.
    for (const k of ['model', 'majorityVote', 'weightedVote', 'random', 'oracle'] as const) {
      sampled.forEach((r, i) => expect(Math.abs(r[k] - exact[i][k]), `${k} at N=${r.n}`).toBeLessThan(0.03));
    }
  });
});

describe('bestOfNCurve edge cases', () => {
  it('energy ties inside subsets score the share of correct candidates among the tied, as in the full group', () => {
    // All energies equal, only candidate 0 correct: every subset is one tie, so the model scores the
    // subset's share of correct candidates, exactly what a random pick does (crediting candidate 0
    // would have made the model equal the oracle instead).
    const g: ScoredGroup = { energies: Array(10).fill(0), labels: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], answers: Array(10).fill(null) };
    const rows = bestOfNCurve([g], { seed: 3, subsetsPerN: 9 });
    expect(col(rows, 'exactGroups')).toEqual([0, 0, 0, 0, 1]); // C(10,1) = C(10,9) = 10 > 9 (N = 1, 2, 4, 8 sampled)
    for (const r of rows) expect(r.model).toBe(r.random);
    expect(rows[4].model).toBe(0.1);
    expect(rows[4].oracle).toBe(1);
  });

  it('ties only among some candidates: the tied minima decide, and non-finite energies rank last', () => {
    // E = [1, 0, 0, NaN] L = [1, 0, 1, 1]; N = 4: the minima {1, 2} hold one correct → ½.
    const g: ScoredGroup = { energies: [1, 0, 0, NaN], labels: [1, 0, 1, 1], answers: [null, null, null, null] };
    const rows = bestOfNCurve([g], { seed: 1, subsetsPerN: 10 });
    expect(rows.at(-1)!.model).toBe(0.5);
    expect(rows.at(-1)!.model).toBe(evaluateGroups([g]).bestOfN);
    // N = 2, all 6 pairs: {0,1} ✗, {0,2} ✓, {0,3} ✓ (NaN last), {1,2} ½, {1,3} ✗, {2,3} ✓ → 3.5 / 6.
    expect(rows[1].model).toBeCloseTo(3.5 / 6, 15);
  });

  it('empty input gives no rows; single-candidate groups give only N = 1', () => {
    expect(bestOfNCurve([], { seed: 1, subsetsPerN: 10 })).toEqual([]);
    const rows = bestOfNCurve(
      [
        { energies: [0.1], labels: [1], answers: [null] },
        { energies: [0.2], labels: [0], answers: ['x'] },
      ],
      { seed: 1, subsetsPerN: 10 },
    );
    expect(rows).toEqual([{ n: 1, nGroups: 2, exactGroups: 2, model: 0.5, majorityVote: 0, weightedVote: 0, random: 0.5, oracle: 0.5 }]);
  });

  it('rejects a bad subsetsPerN and malformed groups', () => {
    expect(() => bestOfNCurve([], { seed: 1, subsetsPerN: 0 })).toThrow(RangeError);
    expect(() => bestOfNCurve([], { seed: 1, subsetsPerN: 1.5 })).toThrow(RangeError);
    expect(() => bestOfNCurve([{ energies: [1], labels: [], answers: [null] }], { seed: 1, subsetsPerN: 1 })).toThrow(RangeError);
  });
});
