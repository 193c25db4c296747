import { describe, expect, it } from 'vitest';
import { evaluateGroups, softplus, type ScoredGroup } from './summary.ts';

const sp = (x: number): number => Math.log(1 + Math.exp(x)); // textbook softplus, fine for |x| ≤ 2

/**
 * Five hand-made groups. Per group (✓ correct / ✗ wrong):
 *            best-of-N            first  random  majority                weighted (softmax(−E))         oracle
 * G1 E=[0.5,1,2]  L=[1,0,0]  A=[4,5,6]: argmin 0 ✓   ✓   1/3   all 1 vote: 3-way tie → 1/3  '4' has weight 1 (max) ✓   ✓
 * G2 E=[1,0,3]    L=[1,0,0]  A=[7,8,9]: argmin 1 ✗   ✓   1/3   all 1 vote: 3-way tie → 1/3  '8': 1 > e^-1, e^-3 → ✗     ✓
 * G3 E=[2,2]      L=[0,1]    A=[–,3]:   tie → ½      ✗   1/2   '3' ✓                        '3' only answer ✓          ✓
 * G4 E=[0.3]      L=[1]      A=[–]:     0 ✓          ✓   1     no answer ✗                  no answer ✗                ✓
 * G5 E=[-1,4]     L=[0,0]    A=[1,2]:   0 ✗          ✗   0     tie of two wrong ✗           ✗                          ✗
 * Vote ties score the expected accuracy of a random pick among the tied answers, like Best-of-N's ties
 * (until issue 20 they went to the first answer seen, which scored G1 and G2 as right).
 * Pairs (E_pos vs E_neg): G1 0.5<1, 0.5<2 → 2/2; G2 1<0 no, 1<3 yes → 1/2; G3 2=2 → ½ of 1. G4, G5 have one label.
 * Margins (mean E_wrong − mean E_right): G1 1.5−0.5 = 1; G2 1.5−1 = 0.5; G3 2−2 = 0.
 */
const G: ScoredGroup[] = [
  { energies: [0.5, 1, 2], labels: [1, 0, 0], answers: ['4', '5', '6'] },
  { energies: [1, 0, 3], labels: [1, 0, 0], answers: ['7', '8', '9'] },
  { energies: [2, 2], labels: [0, 1], answers: [null, '3'] },
  { energies: [0.3], labels: [1], answers: [null] },
  { energies: [-1, 4], labels: [0, 0], answers: ['1', '2'] },
];

describe('evaluateGroups on five hand-made groups', () => {
  const s = evaluateGroups(G);

  it('counts groups, candidates and pairs', () => {
    expect(s.nGroups).toBe(5);
    expect(s.nCandidates).toBe(11); // 3+3+2+1+2
    expect(s.nPairGroups).toBe(3); // G1, G2, G3
    expect(s.nPairs).toBe(5); // 1·2 + 1·2 + 1·1
    expect(s.nNoAnswer).toBe(1); // G4
  });

  it('Best-of-N uses all groups; a tie at the lowest energy scores the share of correct among the tied', () => {
    expect(s.bestOfN).toBeCloseTo(2.5 / 5, 12); // G1, G4 and half of G3
    expect(s.nNonFinite).toBe(0);
  });

  it('pairwise micro pools pairs, macro averages per-group AUC', () => {
    expect(s.pairwise).toBeCloseTo((2 + 1 + 0.5) / 5, 12); // 0.7
    expect(s.pairwiseMacro).toBeCloseTo((1 + 0.5 + 0.5) / 3, 12); // 2/3
  });

  it('margin and BT loss average over groups with both labels', () => {
    expect(s.meanMargin).toBeCloseTo((1 + 0.5 + 0) / 3, 12); // 0.5
    // G1 pairs d = 0.5−1, 0.5−2; G2 d = 1−0, 1−3; G3 d = 0 → softplus(0) = ln 2
    const g1 = (sp(-0.5) + sp(-1.5)) / 2; // (0.474077 + 0.201413)/2 = 0.337745
    const g2 = (sp(1) + sp(-2)) / 2; // (1.313262 + 0.126928)/2 = 0.720095
    expect(s.btLoss).toBeCloseTo((g1 + g2 + Math.LN2) / 3, 12);
    expect(s.btLoss).toBeCloseTo(0.583662, 5);
  });

  it('energy statistics per label (population std)', () => {
    // correct: 0.5, 1, 2, 0.3 → mean 0.95; squared deviations .2025+.0025+1.1025+.4225 = 1.73 → var .4325
    expect(s.energy.correct.count).toBe(4);
    expect(s.energy.correct.mean).toBeCloseTo(0.95, 12);
    expect(s.energy.correct.std).toBeCloseTo(Math.sqrt(0.4325), 12);
    // incorrect: 1, 2, 0, 3, 2, -1, 4 → mean 11/7; E[x²] = 35/7 = 5 → var 5 − 121/49 = 124/49
    expect(s.energy.incorrect.count).toBe(7);
    expect(s.energy.incorrect.mean).toBeCloseTo(11 / 7, 12);
    expect(s.energy.incorrect.std).toBeCloseTo(Math.sqrt(124) / 7, 12);
  });

  it('baselines', () => {
    expect(s.baselines.firstCandidate).toBeCloseTo(3 / 5, 12); // G1, G2, G4
    expect(s.baselines.randomExpected).toBeCloseTo((1 / 3 + 1 / 3 + 1 / 2 + 1 + 0) / 5, 12); // 13/30
    expect(s.baselines.majorityVote).toBeCloseTo((1 / 3 + 1 / 3 + 1) / 5, 12); // G1 and G2 three-way ties, G3
    expect(s.baselines.weightedVote).toBeCloseTo(2 / 5, 12); // G1, G3
    expect(s.baselines.oracle).toBeCloseTo(4 / 5, 12); // all but G5
  });
});

describe('evaluateGroups edge cases', () => {
  it('empty input: counts 0, rates NaN, no throw', () => {
    const s = evaluateGroups([]);
    expect(s.nGroups).toBe(0);
    expect(s.nCandidates).toBe(0);
    expect(s.bestOfN).toBeNaN();
    expect(s.pairwise).toBeNaN();
    expect(s.btLoss).toBeNaN();
    expect(s.energy.correct).toEqual({ count: 0, mean: NaN, std: NaN });
    expect(s.baselines.oracle).toBeNaN();
  });

  it('groups with no candidates are skipped', () => {
    const s = evaluateGroups([{ energies: [], labels: [], answers: [] }, G[0]]);
    expect(s.nGroups).toBe(1);
    expect(s.bestOfN).toBe(1);
  });

  it('single-label groups count for Best-of-N and baselines but leave pair metrics NaN', () => {
    // all-correct group of 2 and a single wrong candidate
    const s = evaluateGroups([
      { energies: [3, 1], labels: [1, 1], answers: ['x', 'x'] },
      { energies: [0], labels: [0], answers: ['y'] },
    ]);
    expect(s.bestOfN).toBe(0.5);
    expect(s.baselines.oracle).toBe(0.5);
    expect(s.baselines.majorityVote).toBe(0.5);
    expect(s.nPairGroups).toBe(0);
    expect(s.pairwise).toBeNaN();
    expect(s.meanMargin).toBeNaN();
  });

  it('accepts typed arrays', () => {
    const s = evaluateGroups([{ energies: new Float32Array([1, 0]), labels: new Uint8Array([0, 1]), answers: ['a', 'b'] }]);
    expect(s.bestOfN).toBe(1);
    expect(s.pairwise).toBe(1);
    expect(s.meanMargin).toBe(1);
  });

  it('identical inputs (all energies equal): Best-of-N is the share of correct, not candidate 0', () => {
    const s = evaluateGroups([
      { energies: [0.7, 0.7, 0.7, 0.7], labels: [1, 0, 0, 0], answers: [null, null, null, null] },
      { energies: [0.2, 0.2, 0.9], labels: [0, 1, 1], answers: [null, null, null] },
    ]);
    expect(s.bestOfN).toBeCloseTo((1 / 4 + 1 / 2) / 2, 15);
    expect(s.pairwise).toBeCloseTo((3 * 0.5 + (0.5 + 0)) / 5, 15); // ties ½, as before; 0.9 > 0.2 discordant
  });

  it('non-finite energies follow one rule (rank as +Infinity) in Best-of-N, pairwise and the weighted vote, and are counted', () => {
    const s = evaluateGroups([
      { energies: [NaN, 5], labels: [0, 1], answers: ['a', 'b'] },
      { energies: [-Infinity, 1, Infinity], labels: [0, 1, 0], answers: ['c', 'd', 'c'] },
      { energies: [NaN, NaN], labels: [1, 0], answers: ['e', 'f'] },
    ]);
    expect(s.nNonFinite).toBe(5);
    // G1: 5 wins. G2: 1 wins (−∞ is no better than +∞). G3: a tie of two → ½.
    expect(s.bestOfN).toBeCloseTo((1 + 1 + 0.5) / 3, 15);
    // G1: 5 < NaN ✓. G2: 1 < −∞ ✓, 1 < +∞ ✓. G3: NaN vs NaN tie ½.
    expect(s.pairwise).toBeCloseTo((1 + 2 + 0.5) / 4, 15);
    // Weighted vote: G1 'b' (the only finite weight) ✓; G2 'd' ✓ (both 'c' weigh 0); G3 equal weights: 'e' ✓ and 'f' ✗ tie → ½.
    expect(s.baselines.weightedVote).toBeCloseTo((1 + 1 + 0.5) / 3, 15);
    // Averages of energies show the divergence.
    expect(s.btLoss).toBeNaN();
    expect(s.energy.incorrect.mean).toBeNaN();
  });

  it('an answer whose candidates carry both labels counts as its share correct; a vote tie as the mean over the tied answers', () => {
    const s = evaluateGroups([
      // 'x' wins 2 votes to 1; its candidates are ✓ and ✗ → ½. Weighted: 'x' holds e^0 + e^-1 > e^-0.5 → ½.
      { energies: [0, 1, 0.5], labels: [1, 0, 0], answers: ['x', 'x', 'y'] },
      // 'p' (✓✗ → ½) and 'q' (✗✗ → 0) tie 2–2, and in weight too (the same energies): (½ + 0) / 2 = ¼.
      { energies: [1, 2, 1, 2], labels: [1, 0, 0, 0], answers: ['p', 'p', 'q', 'q'] },
    ]);
    expect(s.baselines.majorityVote).toBeCloseTo((0.5 + 0.25) / 2, 15);
    expect(s.baselines.weightedVote).toBeCloseTo((0.5 + 0.25) / 2, 15);
  });

  it('throws on mismatched lengths or labels other than 0/1', () => {
    expect(() => evaluateGroups([{ energies: [1, 2], labels: [1], answers: [null, null] }])).toThrow(RangeError);
    expect(() => evaluateGroups([{ energies: [1], labels: [1], answers: [] }])).toThrow(RangeError);
    expect(() => evaluateGroups([{ energies: [1], labels: [2], answers: [null] }])).toThrow(/not 0 or 1/);
  });
});

describe('softplus', () => {
  it('matches log(1+e^x), returns x above 20 and never overflows', () => {
    expect(softplus(0)).toBeCloseTo(Math.LN2, 15);
    expect(softplus(1)).toBeCloseTo(1.3132616875182228, 15);
    expect(softplus(20)).toBeCloseTo(20 + Math.log1p(Math.exp(-20)), 12);
    expect(softplus(20.5)).toBe(20.5);
    expect(softplus(1000)).toBe(1000);
    expect(softplus(-1000)).toBe(0);
    expect(softplus(-30) / Math.exp(-30)).toBeCloseTo(1, 12); // log1p keeps tiny values accurate (log(1+x) would round)
  });
});
