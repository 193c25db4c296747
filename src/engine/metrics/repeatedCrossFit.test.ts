import { describe, expect, it } from 'vitest';
import { bootstrapReplicates, differenceInterval, mean } from './bootstrap.ts';
import { crossFit, type OutOfFold } from './crossFit.ts';
import { crossFitFolds } from './folds.ts';
import { CROSS_FIT_REPEATS, repeatSeed, repeatedCrossFits, widenForFit } from './repeatedCrossFit.ts';
import { selectionReport } from './selection.ts';
import type { ScoredGroup } from './summary.ts';
import { createRng } from '../shared/rng.ts';
import { answerSlots, majorityVotePick } from './vote.ts';

describe('widenForFit', () => {
  it("scales each replicate's distance from the estimate by √(1 + var(deals) / var(replicates))", () => {
    // var(replicates) = 0.01 (n − 1 = 2), var(deals) = 0.0002 (n − 1 = 1): k = √1.02.
    const out = widenForFit(Float64Array.from([0.1, 0.2, 0.3]), 0.2, [0.01, 0.03]);
    const k = Math.sqrt(1.02);
    expect(Array.from(out)).toEqual([0.2 + (0.1 - 0.2) * k, 0.2, 0.2 + (0.3 - 0.2) * k]);
  });

  it('leaves the replicates as they are where the deals agree, or the replicates do', () => {
    const reps = Float64Array.from([0.1, 0.2, 0.3]);
    expect(widenForFit(reps, 0.2, [0.5, 0.5, 0.5])).toBe(reps);
    const flat = Float64Array.from([0.2, 0.2]);
    expect(widenForFit(flat, 0.2, [0.1, 0.3])).toBe(flat);
  });
});

describe('repeated cross-fits', () => {
  it("deal the questions anew, with seeds apart from the report's own deal", () => {
    const seeds = Array.from({ length: CROSS_FIT_REPEATS }, (_, r) => repeatSeed(42, r));
    expect(new Set(seeds).size).toBe(CROSS_FIT_REPEATS);
    for (const s of seeds) expect(s >>> 0).toBe(s);
    const own = Array.from(crossFitFolds(60, 42));
    for (const s of seeds) expect(Array.from(crossFitFolds(60, s))).not.toEqual(own);
  });

  // Energies that know nothing, on 4-answer questions whose answers often tie: the selector's pick among
  // tied answers follows the sign of its energy coefficient, which moves with the deal.
  const rng = createRng(3);
  const groups: ScoredGroup[] = Array.from({ length: 60 }, () => {
    const answers = rng.next() < 0.5 ? ['a', 'a', 'b', 'b'] : ['a', 'b', 'c', 'd'];
    const right = rng.int(4);
    return { answers, labels: answers.map((a) => (a === answers[right] ? 1 : 0)), energies: answers.map(() => rng.next()) };
  });

  it("score every question out of fold under each deal, as one cross-fit with that deal's seed does", () => {
    const deals = repeatedCrossFits(groups, 7, 3);
    deals.forEach((d, r) => {
      const direct = crossFit(groups, repeatSeed(7, r)) as OutOfFold;
      expect(Array.from(d.selector.score)).toEqual(Array.from(direct.selector.score));
      expect(Array.from(d.vote.score)).toEqual(Array.from(direct.vote.score));
    });
  });

  it("widen the selector's interval by the spread of its figure over the deals, and no unfitted rule's", () => {
    const r = selectionReport(groups, { seed: 7, resamples: 400 });
    const fit = crossFit(groups, 7) as OutOfFold;
    const majority = groups.map((g) => majorityVotePick(answerSlots(g.answers, g.labels)));
    const d = Array.from(fit.selector.score, (x, k) => x - majority[k]);
    const plain = differenceInterval(bootstrapReplicates([d], 400, 7)[0], d);
    const deals = repeatedCrossFits(groups, 7).map((f) => mean(f.selector.score) - mean(majority));
    // The figure moves with the deal, so the interval is wider than the bootstrap's over this deal alone.
    expect(Math.max(...deals) - Math.min(...deals)).toBeGreaterThan(0.01);
    const selector = r.versusMajority.find((v) => v.rule === 'selector')!;
    expect(selector.diff).toBeCloseTo(mean(d), 12);
    expect(selector.ci.hi - selector.ci.lo).toBeGreaterThan(plain.hi - plain.lo + 0.005);
    const best = r.versusMajority.find((v) => v.rule === 'bestOfN')!;
    const bestD = groups.map((g, k) => {
      const e = Array.from(g.energies);
      return g.labels[e.indexOf(Math.min(...e))] - majority[k];
    });
    expect(best.ci).toEqual(differenceInterval(bootstrapReplicates([bestD], 400, 7)[0], bestD));
  });
});
