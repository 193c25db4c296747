import { describe, expect, it } from 'vitest';
import { heldOutGroups } from '../testing/heldOutGroups.ts';
import { reliability } from './calibration/calibration.ts';
import { applyPlatt, brierTerms, fitPlatt, logLossTerms } from './calibration/calibrationMap.ts';
import { CROSS_FIT_MIN_QUESTIONS, crossFit } from './crossFit.ts';
import { CROSS_FIT_FOLDS, crossFitFolds } from './folds.ts';
import { selectionReport } from './selection.ts';
import { fitSelector, selectorPick } from './selector.ts';
import { fitTemperature } from './calibration/temperature.ts';
import { answerSlots, majorityVotePick, weightedVotePick } from './vote.ts';

const mean = (xs: ArrayLike<number>): number => Array.from(xs).reduce((s, x) => s + x, 0) / xs.length;

describe('crossFitFolds', () => {
  it('deals every question into one of K folds of near-equal size, the same for the same seed', () => {
    const folds = crossFitFolds(23, 42);
    const sizes = Array.from({ length: CROSS_FIT_FOLDS }, (_, f) => folds.filter((x) => x === f).length);
    expect(sizes).toEqual([5, 5, 5, 4, 4]);
    expect(Array.from(crossFitFolds(23, 42))).toEqual(Array.from(folds));
    expect(Array.from(crossFitFolds(23, 43))).not.toEqual(Array.from(folds));
  });
});

describe('cross-fitted calibration', () => {
  const groups = heldOutGroups(6, 150);
  const report = selectionReport(groups, { seed: 42 });

  it('every figure that depends on a fit is out of fold: recomputed by refitting on the other folds by hand', () => {
    const fold = crossFitFolds(groups.length, 42);
    const n = groups.length;
    const vote = { score: new Float64Array(n), share: new Float64Array(n), platt: new Float64Array(n) };
    const sel = new Float64Array(n);
    for (let f = 0; f < CROSS_FIT_FOLDS; f++) {
      const train = groups.filter((_, k) => fold[k] !== f);
      const { temperature } = fitTemperature(train);
      const picks = train.map((g) => weightedVotePick(answerSlots(g.answers, g.labels), g.energies, temperature));
      const platt = fitPlatt(
        picks.map((p) => p.probability),
        picks.map((p) => p.score),
      );
      const beta = fitSelector(train);
      groups.forEach((g, k) => {
        if (fold[k] !== f) return;
        const pick = weightedVotePick(answerSlots(g.answers, g.labels), g.energies, temperature);
        vote.score[k] = pick.score;
        vote.share[k] = pick.probability;
        vote.platt[k] = applyPlatt(platt, pick.probability);
        sel[k] = selectorPick(g, beta).score;
      });
    }
    const c = report.calibration;
    const prob = c.map === 'platt' ? vote.platt : vote.share;
    expect(c.map).not.toBe('none');
    expect(report.rules.weightedVote.accuracy).toBeCloseTo(mean(vote.score), 14);
    expect(report.rules.selector.accuracy).toBeCloseTo(mean(sel), 14);
    expect(c.ece).toBeCloseTo(reliability(prob, vote.score).ece, 14);
    expect(c.brier).toBeCloseTo(mean(brierTerms(prob, vote.score)), 14);
    expect(c.logLoss).toBeCloseTo(mean(logLossTerms(prob, vote.score)), 14);
    // The map chosen is the one with the lower out-of-fold log loss.
    const other = c.map === 'platt' ? vote.share : vote.platt;
    expect(c.logLoss).toBeLessThanOrEqual(mean(logLossTerms(other, vote.score)));
  });

  it('the figures differ from what a fit on the same questions would claim (the in-sample fit is optimistic)', () => {
    const all = crossFit(groups, 42);
    if ('reason' in all) throw new Error(all.reason);
    const inSample = groups.map((g) => weightedVotePick(answerSlots(g.answers, g.labels), g.energies, all.all.temperature));
    const inSampleLogLoss = mean(
      logLossTerms(
        inSample.map((p) => applyPlatt(all.all.platt, p.probability)),
        inSample.map((p) => p.score),
      ),
    );
    expect(report.calibration.map).toBe('platt');
    expect(report.calibration.logLoss).toBeGreaterThan(inSampleLogLoss);
  });

  it('calibrates: out-of-fold log loss and Brier below those of the raw shares at T = 1', () => {
    expect(report.calibration.logLoss).toBeLessThan(report.calibration.logLossRaw);
    expect(report.calibration.brier).toBeLessThan(report.calibration.brierRaw);
  });

  it(`with fewer than ${CROSS_FIT_MIN_QUESTIONS} questions: "none: …", uncalibrated shares at T = 1, no selector`, () => {
    const three = selectionReport(groups.slice(0, 3), { seed: 42 });
    expect(three.calibration.method).toBe('none: only 3 held-out questions (at least 20 are needed to calibrate out of fold)');
    expect(three.calibration.ece).toBe(three.calibration.eceRaw);
    expect(three.rules.weightedVote).toEqual(three.rules.weightedVoteRaw);
    expect(three.rules.selector.accuracy).toBeNaN();
    expect(three.versusMajority.map((v) => v.rule)).not.toContain('selector');
    expect(selectionReport(groups.slice(0, CROSS_FIT_MIN_QUESTIONS), { seed: 42 }).calibration.method).toBe('k-fold:5');
  });
});

describe('the learned selector', () => {
  it('with few questions whose energies say nothing it falls back to majority vote: it picks the most-voted answer wherever one has the most votes', () => {
    const few = heldOutGroups(9, 20, 0);
    const beta = fitSelector(few);
    let compared = 0;
    for (const g of heldOutGroups(10, 200, 0)) {
      const slots = answerSlots(g.answers, g.labels);
      const most = Math.max(...slots.votes);
      if (slots.votes.filter((v) => v === most).length !== 1) continue;
      compared++;
      expect(selectorPick(g, beta).score).toBe(majorityVotePick(slots));
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('with many questions where the energy tells right from wrong, it beats majority vote out of fold', () => {
    const r = selectionReport(heldOutGroups(11, 400, 2), { seed: 7 });
    const v = r.versusMajority.find((x) => x.rule === 'selector')!;
    expect(v.real).toBe(true);
    expect(v.diff).toBeGreaterThan(0.1);
    expect(r.calibration.selector!.ece).toBeLessThan(0.1);
  });

  it('on energies that say nothing it does no worse than majority vote by more than noise', () => {
    const r = selectionReport(heldOutGroups(12, 300, 0), { seed: 7 });
    const v = r.versusMajority.find((x) => x.rule === 'selector')!;
    expect(v.ci.lo).toBeLessThan(0);
    expect(v.diff).toBeGreaterThan(-0.03);
  });
});
