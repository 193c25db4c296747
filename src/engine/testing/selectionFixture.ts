/** A SelectionReport as the engine computes it, for the store and UI tests (figures made up, shapes real). */
import type { ReliabilityBin, SelectionReport } from '../metrics/selectionTypes.ts';

const bins = (shift: number): ReliabilityBin[] =>
  Array.from({ length: 10 }, (_, k) => {
    const count = k < 3 ? 0 : 4;
    return { lo: k / 10, hi: (k + 1) / 10, count, confidence: count ? k / 10 + 0.05 : NaN, accuracy: count ? Math.min(1, k / 10 + shift) : NaN };
  });

export function selectionFixture(over: Partial<SelectionReport> = {}): SelectionReport {
  return {
    groups: 132,
    rules: {
      bestOfN: { accuracy: 0.707, ci: { lo: 0.63, hi: 0.78 } },
      majority: { accuracy: 0.732, ci: { lo: 0.66, hi: 0.8 } },
      weightedVote: { accuracy: 0.811, ci: { lo: 0.74, hi: 0.87 } },
      weightedVoteRaw: { accuracy: 0.79, ci: { lo: 0.72, hi: 0.86 } },
      selector: { accuracy: 0.8, ci: { lo: 0.73, hi: 0.86 } },
      generatorVote: { accuracy: 0.732, ci: { lo: 0.66, hi: 0.8 } },
      generatorVoteFree: { accuracy: 0.732, ci: { lo: 0.66, hi: 0.8 } },
      first: { accuracy: 0.5, ci: { lo: 0.42, hi: 0.58 } },
      random: { accuracy: 0.52, ci: { lo: 0.47, hi: 0.57 } },
      oracle: { accuracy: 1, ci: { lo: 1, hi: 1 } },
    },
    temperature: 0.42,
    temperatureSource: 'fitted on 132 held-out questions; every figure that depends on it is out of fold (5 folds)',
    versusMajority: [
      { rule: 'bestOfN', diff: -0.025, ci: { lo: -0.09, hi: 0.04 }, differing: 30, p: 0.4, pAdjusted: 0.8, real: false },
      { rule: 'weightedVote', diff: 0.079, ci: { lo: 0.03, hi: 0.13 }, differing: 21, p: 0.002, pAdjusted: 0.008, real: true },
      { rule: 'weightedVoteRaw', diff: 0.058, ci: { lo: 0.01, hi: 0.11 }, differing: 19, p: 0.01, pAdjusted: 0.03, real: true },
      { rule: 'selector', diff: 0.068, ci: { lo: 0.02, hi: 0.12 }, differing: 17, p: 0.005, pAdjusted: 0.015, real: true },
      { rule: 'generatorVote', diff: 0, ci: { lo: 0, hi: 0 }, differing: 0, p: 1, pAdjusted: 1, real: false },
      { rule: 'generatorVoteFree', diff: 0, ci: { lo: 0, hi: 0 }, differing: 0, p: 1, pAdjusted: 1, real: false },
    ],
    bestVerifier: {
      rule: 'weightedVote',
      diff: 0.079,
      ci: { lo: 0.02, hi: 0.14 },
      differing: 21,
      p: 0.002,
      pAdjusted: 0.008,
      real: true,
      chosen: 'real gain',
      level: 0.9875,
    },
    energyGain: {
      rule: 'selector',
      versus: 'majority',
      diff: 0.068,
      ci: { lo: 0.02, hi: 0.12 },
      differing: 17,
      p: 0.005,
      real: true,
      sentence: 'The trained verifier was worth it on this data: the learned selector against majority vote: +6.8 points.',
    },
    test: 'an exact paired sign-flip test',
    probabilityMap: { temperature: 0.42, platt: { a: 0.8, b: -0.1 }, selector: [-2, 4, -0.3, -0.2, 0.1, 0], use: 'vote', recommended: 'weightedVote' },
    recommended: { rule: 'weightedVote', sentence: 'Use the energy-weighted vote: it beats majority vote by 7.9 points (95% interval 3.0 to 13.0).' },
    mixedLabelAnswers: 11,
    calibration: {
      method: 'k-fold:5',
      questions: 132,
      map: 'platt',
      ece: 0.04,
      eceCi: { lo: 0.03, hi: 0.09 },
      brier: 0.15,
      brierCi: { lo: 0.12, hi: 0.18 },
      logLoss: 0.46,
      logLossCi: { lo: 0.4, hi: 0.53 },
      eceRaw: 0.11,
      brierRaw: 0.19,
      logLossRaw: 0.9,
      bins: bins(0.02),
      binsRaw: bins(-0.1),
      selector: { ece: 0.05, brier: 0.16, logLoss: 0.48 },
    },
    bootstrap: { resamples: 1000, seed: 42 },
    ...over,
  };
}
