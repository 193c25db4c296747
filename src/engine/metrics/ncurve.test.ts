import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { INSTALL_TORCH, PYTHON_DIR, findPython } from '../testing/pythonNode.ts';
import { CURVE_RULES, bestOfNCurve, curveSizes, quantile, type NCurveRow } from './ncurve.ts';
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
      // A few answers carry both labels ('mixed'): the answer matching and the labels disagree.
      const mixed = rnd() < 0.1;
      labels.push(ok ? 1 : 0);
      energies.push(Math.round((rnd() * 4 - (ok ? signal : 0)) * 4) / 4); // correct ones lower by `signal`
      answers.push(rnd() < 0.1 ? null : mixed ? 'mixed' : ok ? 'gold' : `w${Math.floor(rnd() * 3)}`);
    }
    return { energies, labels, answers };
  });
}

const col = (rows: NCurveRow[], k: keyof NCurveRow): number[] => rows.map((r) => r[k] as number);

describe('curveSizes and quantile', () => {
  it('powers of two up to the max, plus the max itself', () => {
    expect(curveSizes(0)).toEqual([]);
    expect(curveSizes(1)).toEqual([1]);
    expect(curveSizes(3)).toEqual([1, 2, 3]);
    expect(curveSizes(8)).toEqual([1, 2, 4, 8]);
    expect(curveSizes(12)).toEqual([1, 2, 4, 8, 12]);
  });

  it('interpolates linearly between order statistics (numpy default)', () => {
    expect(quantile([5], 0.025)).toBe(5);
    expect(quantile([0, 10], 0.025)).toBeCloseTo(0.25, 15);
    expect(quantile([0, 1, 2, 3, 4], 0.975)).toBeCloseTo(3.9, 15);
    expect(quantile([0, 1, 2, 3, 4], 0)).toBe(0);
    expect(quantile([0, 1, 2, 3, 4], 1)).toBe(4);
  });
});

describe('bestOfNCurve on two hand-made groups', () => {
  /*
   * A: E=[1,0,2] L=[0,1,0] A=[a,b,a]   B: E=[0,1] L=[1,0] A=[c,d]
   * A, N=2 (three equally likely subsets):
   *                model     majority                    weighted (softmax(−E))   random  oracle
   *   {0,1} E 1,0  1         a,b tie → (0 + 1)/2 = ½      b: 1 > a: e^-1 → 1       ½       1
   *   {0,2} E 1,2  0         a → 0                        a → 0                    0       0
   *   {1,2} E 0,2  1         b,a tie → ½                  b → 1                    ½       1
   *   mean         2/3       1/3                          2/3                      1/3     2/3
   * A, N=3 (whole group): model 1; majority a (2 votes) 0; weighted b (1 > e^-1 + e^-2) 1; random 1/3; oracle 1.
   * B, N=2 (whole group): model 1; majority c,d tie → ½; weighted c 1; random ½; oracle 1.
   */
  const groups: ScoredGroup[] = [
    { energies: [1, 0, 2], labels: [0, 1, 0], answers: ['a', 'b', 'a'] },
    { energies: [0, 1], labels: [1, 0], answers: ['c', 'd'] },
  ];

  it('a row with no sampled group is the whole-group evaluation, computed once, with a point band', () => {
    const rows = bestOfNCurve(groups, { seed: 1, subsetsPerN: 50 });
    expect(col(rows, 'n')).toEqual([1, 2, 3]);
    expect(col(rows, 'nGroups')).toEqual([2, 2, 1]);
    expect(col(rows, 'exactGroups')).toEqual([0, 1, 1]);
    expect(col(rows, 'trials')).toEqual([50, 50, 1]);
    const last = rows[2];
    expect([last.model, last.majorityVote, last.weightedVote, last.random, last.oracle]).toEqual([1, 0, 1, 1 / 3, 1]);
    for (const r of CURVE_RULES) expect(last.band[r]).toEqual({ lo: last[r], hi: last[r] });
  });

  it('the mean estimates the expectation over subsets; the band spans the trials', () => {
    const rows = bestOfNCurve(groups, { seed: 3, subsetsPerN: 20000 });
    const n2 = rows[1];
    // Row N = 2: the mean over A's three subsets and B's whole group; 20,000 trials: std ≤ 0.5/√20000 ≈ 0.0035.
    const expected = {
      model: (2 / 3 + 1) / 2,
      majorityVote: (1 / 3 + 1 / 2) / 2,
      weightedVote: (2 / 3 + 1) / 2,
      random: (1 / 3 + 1 / 2) / 2,
      oracle: (2 / 3 + 1) / 2,
    };
    for (const r of CURVE_RULES) expect(Math.abs(n2[r] - expected[r]), r).toBeLessThan(0.015);
    // A trial's model accuracy is (A's subset score + 1) / 2 ∈ {½, 1}: the band spans both.
    expect(n2.band.model).toEqual({ lo: 0.5, hi: 1 });
    expect(n2.band.majorityVote).toEqual({ lo: 0.25, hi: 0.5 }); // (0 + ½)/2 and (½ + ½)/2
    for (const r of CURVE_RULES) {
      expect(n2.band[r].lo).toBeLessThanOrEqual(n2[r]);
      expect(n2.band[r].hi).toBeGreaterThanOrEqual(n2[r]);
    }
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

  it('the row at N = every group’s size is exactly the full-group evaluation (same tie rules)', () => {
    const groups = makeGroups(Array(10).fill(12), 3, 0); // no signal: the model errs
    const rows = bestOfNCurve(groups, { seed: 5, subsetsPerN: 7 });
    const last = rows[rows.length - 1];
    expect(col(rows, 'n')).toEqual([1, 2, 4, 8, 12]);
    const full = evaluateGroups(groups);
    expect([last.nGroups, last.exactGroups, last.trials]).toEqual([10, 10, 1]);
    expect(full.bestOfN).toBeGreaterThan(0); // a non-trivial comparison
    expect(full.bestOfN).toBeLessThan(1);
    expect(last.model).toBe(full.bestOfN);
    expect(last.majorityVote).toBe(full.baselines.majorityVote);
    expect(last.weightedVote).toBe(full.baselines.weightedVote);
    expect(last.random).toBe(full.baselines.randomExpected);
    expect(last.oracle).toBe(full.baselines.oracle);
  });

  it('with equal sizes: random stays at the group share, the oracle grows with N, N = 1 is a random pick', () => {
    const groups = makeGroups(Array(30).fill(8), 11);
    const rows = bestOfNCurve(groups, { seed: 0, subsetsPerN: 2000 });
    const share = evaluateGroups(groups).baselines.randomExpected;
    for (const r of rows) expect(Math.abs(r.random - share)).toBeLessThan(0.01);
    const oracle = col(rows, 'oracle');
    for (let i = 1; i < oracle.length; i++) expect(oracle[i]).toBeGreaterThan(oracle[i - 1]);
    expect(Math.abs(rows[0].model - rows[0].random)).toBeLessThan(1e-12); // one candidate: every rule picks it
    expect(rows[0].majorityVote).toBeLessThanOrEqual(rows[0].random + 1e-12); // no answer counts as wrong
  });

  it('energy ties inside subsets score the share of correct candidates among the tied', () => {
    // All energies equal, only candidate 0 correct: every subset is one tie, so the model scores the
    // subset's share of correct candidates, exactly what a random pick does.
    const g: ScoredGroup = { energies: Array(10).fill(0), labels: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], answers: Array(10).fill(null) };
    const rows = bestOfNCurve([g], { seed: 3, subsetsPerN: 9 });
    for (const r of rows) {
      expect(r.model).toBe(r.random);
      expect(r.band.model).toEqual(r.band.random);
    }
    expect(rows[4].model).toBe(0.1);
    expect(rows[4].oracle).toBe(1);
  });

  it('the temperature moves only the weighted vote, and must be positive', () => {
    // a: two candidates (one correct) at high energy; b: one wrong candidate at low energy.
    const g: ScoredGroup = { energies: [2, 2, 0], labels: [1, 0, 0], answers: ['a', 'a', 'b'] };
    const cold = bestOfNCurve([g], { seed: 1, subsetsPerN: 4, temperature: 0.1 }).at(-1)!;
    const hot = bestOfNCurve([g], { seed: 1, subsetsPerN: 4, temperature: 100 }).at(-1)!;
    expect(cold.weightedVote).toBe(0); // b: the lowest energy dominates
    expect(hot.weightedVote).toBe(0.5); // a: the votes dominate; half of a's candidates are correct
    expect({ ...cold, weightedVote: 0, band: null }).toEqual({ ...hot, weightedVote: 0, band: null });
    expect(() => bestOfNCurve([g], { seed: 1, subsetsPerN: 4, temperature: 0 })).toThrow(RangeError);
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
    const point = (x: number) => ({ lo: x, hi: x });
    expect(rows).toEqual([
      {
        n: 1,
        nGroups: 2,
        exactGroups: 2,
        trials: 1,
        model: 0.5,
        majorityVote: 0,
        weightedVote: 0,
        random: 0.5,
        oracle: 0.5,
        band: { model: point(0.5), majorityVote: point(0), weightedVote: point(0), random: point(0.5), oracle: point(0.5) },
      },
    ]);
  });

  it('rejects a bad subsetsPerN and malformed groups', () => {
    expect(() => bestOfNCurve([], { seed: 1, subsetsPerN: 0 })).toThrow(RangeError);
    expect(() => bestOfNCurve([], { seed: 1, subsetsPerN: 1.5 })).toThrow(RangeError);
    expect(() => bestOfNCurve([{ energies: [1], labels: [], answers: [null] }], { seed: 1, subsetsPerN: 1 })).toThrow(RangeError);
  });
});

describe('python/eorm/metrics/ncurve.py is the twin', () => {
  it('gives the same rows, draw for draw, on the same groups, seed and temperature', () => {
    const groups = makeGroups([9, 12, 10, 12, 7, 11, 12, 3], 17);
    const opts = { seed: 11, subsetsPerN: 16, temperature: 0.7 };
    const code = [
      'import json, sys',
      'from eorm.metrics.summary import ScoredGroup',
      'from eorm.metrics.ncurve import best_of_n_curve',
      'q = json.load(sys.stdin)',
      'gs = [ScoredGroup(g["energies"], g["labels"], g["answers"]) for g in q["groups"]]',
      'print(json.dumps(best_of_n_curve(gs, q["seed"], q["subsetsPerN"], q["temperature"])))',
    ].join('\n');
    const { python, tried } = findPython();
    if (!python) throw new Error(`No Python for the curve twin (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const out = execFileSync(python, ['-c', code], { cwd: PYTHON_DIR, input: JSON.stringify({ groups, ...opts }), encoding: 'utf8' });
    const py = JSON.parse(out) as NCurveRow[];
    const ts = bestOfNCurve(groups, opts);
    expect(py.map((r) => [r.n, r.nGroups, r.exactGroups, r.trials])).toEqual(ts.map((r) => [r.n, r.nGroups, r.exactGroups, r.trials]));
    // exp() may differ in its last bit between V8 and libm: the votes' tie tolerance keeps the picks equal.
    ts.forEach((row, i) => {
      for (const r of CURVE_RULES) {
        expect(py[i][r], `${r} at N=${row.n}`).toBeCloseTo(row[r], 12);
        expect(py[i].band[r].lo).toBeCloseTo(row.band[r].lo, 12);
        expect(py[i].band[r].hi).toBeCloseTo(row.band[r].hi, 12);
      }
    });
  });
});
