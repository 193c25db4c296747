import { describe, expect, it } from 'vitest';
import { SELECTION_RULES, selectionReport } from './selection.ts';
import { recommendRule } from './selectionSentence.ts';
import type { RuleFigure, SelectionRule, VersusMajority } from './selectionTypes.ts';
import { evaluateGroups, type ScoredGroup } from './summary.ts';

/**
 * Four groups (✓ right, ✗ wrong); at T = 1:
 *                                       best-of-N  majority        weighted (T = 1)             first random oracle
 * G1 E=[0,1,2]    L=[1,0,0] A=[a,b,b]   ✓          'b' 2 votes ✗   a: 1 > b: e^-1+e^-2 ✓        ✓     1/3    ✓
 * G2 E=[1,0]      L=[0,1]   A=[x,y]     ✓          tie → ½         y ✓                          ✗     1/2    ✓
 * G3 E=[0,0]      L=[0,0]   A=[p,q]     ✗          tie → 0         tie → 0                      ✗     0      ✗
 * G4 E=[.5,.2,.9] L=[1,0,1] A=[k,k,m]   ✗ (0.2)    'k' ½ right → ½ k: 1+e^-.3 > e^-.7 → ½       ✓     2/3    ✓
 * 'k' carries both labels: one mixed-label answer.
 */
const G: ScoredGroup[] = [
  { energies: [0, 1, 2], labels: [1, 0, 0], answers: ['a', 'b', 'b'] },
  { energies: [1, 0], labels: [0, 1], answers: ['x', 'y'] },
  { energies: [0, 0], labels: [0, 0], answers: ['p', 'q'] },
  { energies: [0.5, 0.2, 0.9], labels: [1, 0, 1], answers: ['k', 'k', 'm'] },
];

const TOO_FEW = 'only 4 held-out questions (at least 20 are needed to calibrate out of fold)';

describe('selectionReport on four hand-made groups, too few to fit on', () => {
  const r = selectionReport(G, { seed: 1 });

  it('scores every rule with the same tie rule', () => {
    expect(r.groups).toBe(4);
    const acc = Object.fromEntries(Object.entries(r.rules).map(([k, v]) => [k, v.accuracy]));
    // No generators named: both generator-weighted votes are majority vote.
    expect(acc).toEqual({
      bestOfN: 0.5,
      majority: 0.25,
      weightedVote: 0.625,
      weightedVoteRaw: 0.625,
      selector: NaN,
      generatorVote: 0.25,
      generatorVoteFree: 0.25,
      first: 0.5,
      random: 0.375,
      oracle: 0.75,
    });
    expect(r.mixedLabelAnswers).toBe(1);
  });

  it('says T = 1 and why, calibration "none: …", the shares uncalibrated, the selector unfitted', () => {
    expect(r.temperature).toBe(1);
    expect(r.temperatureSource).toBe(`not fitted (T = 1): ${TOO_FEW}`);
    expect(r.calibration.method).toBe(`none: ${TOO_FEW}`);
    expect(r.calibration.map).toBe('none');
    expect(r.calibration.questions).toBe(0);
    expect(r.calibration.selector).toBeNull();
    expect(r.probabilityMap).toEqual({ temperature: 1, platt: null, selector: null, use: 'vote', recommended: 'majority' });
  });

  it('intervals contain the figures; the paired differences are not real on 4 groups, and the sentence says so', () => {
    for (const [rule, f] of Object.entries(r.rules)) {
      if (rule === 'selector') continue; // NaN, unfitted
      expect(f.ci.lo).toBeLessThanOrEqual(f.accuracy);
      expect(f.ci.hi).toBeGreaterThanOrEqual(f.accuracy);
    }
    expect(r.versusMajority.map((v) => v.rule)).toEqual(['bestOfN', 'weightedVote', 'weightedVoteRaw', 'generatorVote', 'generatorVoteFree']);
    expect(r.versusMajority[1].diff).toBeCloseTo(0.375, 15);
    // The vote at T = 1 differs from majority vote on G1 (+1) and G2 (+½) only: of the four sums ±1 ± ½, two reach 1.5.
    expect(r.versusMajority[1].differing).toBe(2);
    expect(r.versusMajority[1].p).toBe(0.5);
    expect(r.versusMajority[3]).toMatchObject({ differing: 0, p: 1, pAdjusted: 1, real: false });
    expect(r.versusMajority.every((v) => !v.real)).toBe(true);
    expect(r.recommended.rule).toBe('majority');
    expect(r.recommended.sentence).toMatch(
      /^Use majority vote: no rule beats it for real on these 4 questions; the best, the energy-weighted vote at T = 1\.00, scores 62\.5% vs 25\.0%, \+37\.5 points \(95% CI [+-]\d+\.\d to \+\d+\.\d; p = 1\.000 adjusted, 2 differing\)\.$/,
    );
    expect(r.bootstrap).toEqual({ resamples: 1000, seed: 1 });
  });

  it('calibration: the pick’s probability is its answer’s share of the vote', () => {
    const p1 = 1 / (1 + Math.exp(-1) + Math.exp(-2)); // G1 'a' ✓
    const p2 = 1 / (1 + Math.exp(-1)); // G2 'y' ✓
    const p4 = (1 + Math.exp(-0.3)) / (1 + Math.exp(-0.3) + Math.exp(-0.7)); // G4 'k', ½ right
    const bins = r.calibration.binsRaw;
    expect(bins.map((b) => b.count)).toEqual([0, 0, 0, 0, 0, 1, 1, 2, 0, 0]); // G3's tie at 0.5; p1 ≈ .665; p2 ≈ .731, p4 ≈ .778
    expect(bins[7].confidence).toBeCloseTo((p2 + p4) / 2, 14);
    expect(bins[7].accuracy).toBe(0.75);
    const ece = (Math.abs(0 - 0.5) + Math.abs(1 - p1) + 2 * Math.abs(0.75 - (p2 + p4) / 2)) / 4;
    expect(r.calibration.eceRaw).toBeCloseTo(ece, 12);
    expect(r.calibration.ece).toBe(r.calibration.eceRaw); // T = 1
    // Brier and log loss of the same probabilities, log loss with q kept 1e-6 from 0 and 1.
    const probs = [p1, p2, 0.5, p4];
    const right = [1, 1, 0, 0.5];
    expect(r.calibration.brier).toBeCloseTo(probs.reduce((s, q, i) => s + (q - right[i]) ** 2, 0) / 4, 14);
    expect(r.calibration.logLoss).toBeCloseTo(probs.reduce((s, q, i) => s - right[i] * Math.log(q) - (1 - right[i]) * Math.log(1 - q), 0) / 4, 12);
    expect(r.calibration.brierRaw).toBe(r.calibration.brier);
    for (const [x, ci] of [
      [r.calibration.ece, r.calibration.eceCi],
      [r.calibration.brier, r.calibration.brierCi],
      [r.calibration.logLoss, r.calibration.logLossCi],
    ] as const) {
      expect(ci.lo).toBeLessThanOrEqual(x);
      expect(ci.hi).toBeGreaterThanOrEqual(x);
    }
  });

  it('the summary’s vote baselines are the report’s majority and unfitted vote', () => {
    const s = evaluateGroups(G);
    expect(s.baselines.majorityVote).toBe(r.rules.majority.accuracy);
    expect(s.baselines.weightedVote).toBe(r.rules.weightedVoteRaw.accuracy);
    expect(s.bestOfN).toBe(r.rules.bestOfN.accuracy);
  });
});

describe('selectionReport cross-fitted over its own questions', () => {
  // 60 questions where the lowest energy is right and the majority wrong (G1's kind), 60 ties (G2's kind).
  const report = [...Array.from({ length: 60 }, () => G[0]), ...Array.from({ length: 60 }, () => G[1])];
  const r = selectionReport(report, { seed: 42 });

  it('fits on the reported questions, K folds, and says so', () => {
    expect(r.calibration.method).toBe('k-fold:5');
    expect(r.calibration.questions).toBe(120);
    // The energy always ranks right here: the fit runs to the search's lower bound, on held-out questions.
    expect(r.temperature).toBeCloseTo(0.01, 6);
    expect(r.temperatureSource).toBe('fitted on 120 held-out questions; every figure that depends on it is out of fold (5 folds)');
  });

  it('recommends the rule that beats majority vote for real (the weighted vote on an exact tie), and names the best verifier rule', () => {
    expect(r.versusMajority.map((v) => v.rule)).toEqual(['bestOfN', 'weightedVote', 'weightedVoteRaw', 'selector', 'generatorVote', 'generatorVoteFree']);
    expect(r.rules.weightedVote.accuracy).toBe(1);
    expect(r.recommended.rule).toBe('weightedVote');
    expect(r.recommended.sentence).toMatch(
      /^Use the energy-weighted vote \(T = 0\.01\): 100\.0% vs 25\.0% for majority vote, \+75\.0 points \(95% CI \+\d+\.\d to \+\d+\.\d; p < 0\.001 adjusted, 120 differing\) over 120 questions\.$/,
    );
    // The largest real verifier gain, its interval widened for the choice among the four verifier rules.
    expect(r.bestVerifier).toMatchObject({ ...r.versusMajority[1], ci: r.bestVerifier!.ci, chosen: 'real gain', level: 1 - 0.05 / 4 });
    expect(r.bestVerifier!.ci.lo).toBeLessThanOrEqual(r.versusMajority[1].ci.lo);
    expect(r.probabilityMap.use).toBe('vote');
  });

  it('no groups: NaN figures and a sentence that says there is nothing to compare', () => {
    const empty = selectionReport([{ energies: [], labels: [], answers: [] }], { seed: 1 });
    expect(empty.groups).toBe(0);
    expect(empty.rules.bestOfN.accuracy).toBeNaN();
    expect(empty.rules.bestOfN.ci.lo).toBeNaN();
    expect(empty.calibration.ece).toBeNaN();
    expect(empty.calibration.method).toBe('none: only 0 held-out questions (at least 20 are needed to calibrate out of fold)');
    expect(empty.recommended).toEqual({ rule: 'majority', sentence: 'No questions to compare the rules on.' });
  });
});

describe('recommendRule', () => {
  const fig = (accuracy: number): RuleFigure => ({ accuracy, ci: { lo: accuracy - 0.05, hi: accuracy + 0.05 } });
  const rules = Object.fromEntries(SELECTION_RULES.map((k) => [k, fig(0.5)])) as Record<SelectionRule, RuleFigure>;
  const versus = (rule: VersusMajority['rule'], diff: number, ci: [number, number], pAdjusted: number, differing = 20): VersusMajority => ({
    rule,
    diff,
    ci: { lo: ci[0], hi: ci[1] },
    differing,
    p: pAdjusted / 2,
    pAdjusted,
    real: pAdjusted < 0.05,
  });

  it('words the winner with its interval and its adjusted test', () => {
    const r = { ...rules, bestOfN: fig(0.707), majority: fig(0.712), weightedVote: fig(0.811) };
    const out = recommendRule(r, [versus('bestOfN', -0.005, [-0.05, 0.04], 0.9), versus('weightedVote', 0.099, [0.062, 0.135], 0.0004, 31)], 0.42, 132);
    expect(out).toEqual({
      rule: 'weightedVote',
      sentence:
        'Use the energy-weighted vote (T = 0.42): 81.1% vs 71.2% for majority vote, +9.9 points (95% CI +6.2 to +13.5; p < 0.001 adjusted, 31 differing) over 132 questions.',
    });
  });

  it('a real winner beats a larger difference that is not real; Best-of-N has its own words', () => {
    const out = recommendRule(
      { ...rules, bestOfN: fig(0.6), majority: fig(0.5), weightedVote: fig(0.65) },
      [versus('bestOfN', 0.1, [0.01, 0.2], 0.02, 9), versus('weightedVote', 0.15, [-0.01, 0.3], 0.2)],
      1,
      1,
    );
    expect(out.sentence).toBe(
      'Use Best-of-N (the lowest-energy answer): 60.0% vs 50.0% for majority vote, +10.0 points (95% CI +1.0 to +20.0; p = 0.020 adjusted, 9 differing) over 1 question.',
    );
  });

  it('a rule worse than majority vote for real is never recommended', () => {
    const out = recommendRule(
      { ...rules, bestOfN: fig(0.3), majority: fig(0.5), weightedVote: fig(0.4) },
      [versus('bestOfN', -0.2, [-0.3, -0.1], 0.001), versus('weightedVote', -0.1, [-0.2, -0.01], 0.01)],
      2.5,
      50,
    );
    expect(out).toEqual({
      rule: 'majority',
      sentence:
        'Use majority vote: no rule beats it for real on these 50 questions; the best, the energy-weighted vote at T = 2.50, scores 40.0% vs 50.0%, -10.0 points (95% CI -20.0 to -1.0; p = 0.010 adjusted, 20 differing).',
    });
  });

  it('a gain whose interval excludes 0 is not recommended unless the adjusted test calls it real', () => {
    const out = recommendRule({ ...rules, majority: fig(0.5), weightedVote: fig(0.54) }, [versus('weightedVote', 0.04, [0.01, 0.08], 0.125, 4)], 1, 100);
    expect(out.rule).toBe('majority');
  });

  it('names the selector and the generator-weighted vote in their own words', () => {
    const out = recommendRule(
      { ...rules, majority: fig(0.5), selector: fig(0.6), weightedVoteRaw: fig(0.55) },
      [versus('weightedVoteRaw', 0.05, [-0.01, 0.1], 0.3), versus('selector', 0.1, [0.02, 0.2], 0.01)],
      0.5,
      80,
    );
    expect(out).toEqual({
      rule: 'selector',
      sentence:
        'Use the learned selector (vote share, generators and energy, cross-fitted): 60.0% vs 50.0% for majority vote, +10.0 points (95% CI +2.0 to +20.0; p = 0.010 adjusted, 20 differing) over 80 questions.',
    });
    const gen = recommendRule({ ...rules, majority: fig(0.5), generatorVote: fig(0.64) }, [versus('generatorVote', 0.14, [0.09, 0.19], 0.0001)], 0.5, 145);
    expect(gen.rule).toBe('generatorVote');
    expect(gen.sentence).toMatch(/^Use the generator-weighted vote \(weights from the training questions' labels\): 64\.0% vs 50\.0%/);
  });
});
