import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { fitAgreementGenerators } from './generatorAgreement.ts';
import { type SourcedAnswers, candidateWeights, fitLabelledGenerators, generatorVotePick, voteWeight, GENERATOR_PRIOR_ANSWERS } from './generators.ts';
import { answerSlots, majorityVotePick } from '../vote.ts';

/** Questions answered by generators right with probability `accuracy[s]`, wrong ones spread over 4 wrong answers. */
function simulate(accuracy: number[], questions: number, seed: number): SourcedAnswers[] {
  const rng = createRng(seed);
  return Array.from({ length: questions }, () => {
    const answers: string[] = [];
    const labels: number[] = [];
    const sources: number[] = [];
    accuracy.forEach((p, s) => {
      const right = rng.next() < p;
      answers.push(right ? 'gold' : `wrong${rng.int(4)}`);
      labels.push(right ? 1 : 0);
      sources.push(s);
    });
    return { answers, labels, sources };
  });
}

const names = (k: number) => Array.from({ length: k }, (_, s) => `model-${s}`);
const score = (qs: SourcedAnswers[], weights: (q: SourcedAnswers) => Float64Array | null) =>
  qs.reduce((a, q) => {
    const slots = answerSlots(q.answers, q.labels);
    const w = weights(q);
    return a + (w ? generatorVotePick(slots, w).score : majorityVotePick(slots));
  }, 0) / qs.length;

describe('the generator-weighted vote', () => {
  it('with equal weights is majority vote, question for question (ties included)', () => {
    for (const q of simulate([0.5, 0.4, 0.3, 0.6, 0.2], 300, 1)) {
      const slots = answerSlots(q.answers, q.labels);
      expect(generatorVotePick(slots, new Float64Array(q.answers.length).fill(voteWeight(0.3, 10))).score).toBe(majorityVotePick(slots));
    }
  });

  it('learns each generator’s rate from labels, smoothed towards the pooled rate, and beats majority vote when they differ', () => {
    const accuracy = [0.9, 0.3, 0.3, 0.3, 0.3];
    const train = simulate(accuracy, 400, 2);
    const w = fitLabelledGenerators(train, names(5), 42)!;
    expect(w.method).toBe('labels');
    const pooled = train.flatMap((q) => Array.from(q.labels)).reduce((a, b) => a + b, 0) / (400 * 5);
    expect(w.pooled).toBeCloseTo(pooled, 12);
    const hits0 = train.reduce((a, q) => a + q.labels[0], 0);
    expect(w.reliability[0]).toBeCloseTo((hits0 + GENERATOR_PRIOR_ANSWERS * pooled) / (400 + GENERATOR_PRIOR_ANSWERS), 12);
    const test = simulate(accuracy, 400, 3);
    const weighted = score(test, (q) =>
      candidateWeights(
        w,
        Array.from(q.sources, (s) => `model-${s}`),
      ),
    );
    const majority = score(test, () => null);
    expect(weighted - majority).toBeGreaterThan(0.05);
  });

  it('gives a generator it never saw, and a candidate without a source, the pooled weight', () => {
    const w = fitLabelledGenerators(simulate([0.9, 0.2], 50, 4), names(2), 1)!;
    const c = candidateWeights(w, ['model-0', 'somebody else', null]);
    expect(c[1]).toBe(voteWeight(w.pooled, w.alternatives));
    expect(c[2]).toBe(c[1]);
    expect(c[0]).toBeGreaterThan(c[1]);
  });

  it('with fewer than two generators there is nothing to weigh: no fit', () => {
    const one = simulate([0.7], 20, 5);
    expect(fitLabelledGenerators(one, names(1), 1)).toBeNull();
    expect(fitAgreementGenerators(one, names(1))).toBeNull();
  });

  it('learns the same order of reliabilities from agreement alone, labels unread', () => {
    const accuracy = [0.95, 0.8, 0.6, 0.4, 0.2, 0.1];
    const qs = simulate(accuracy, 500, 6);
    const free = fitAgreementGenerators(qs, names(6))!;
    const blind = fitAgreementGenerators(
      qs.map((q) => ({ ...q, labels: new Array(q.labels.length).fill(0) })),
      names(6),
    )!;
    expect(blind).toEqual(free);
    for (let s = 1; s < accuracy.length; s++) expect(free.reliability[s]).toBeLessThan(free.reliability[s - 1]);
    const weighted = score(qs, (q) =>
      candidateWeights(
        free,
        Array.from(q.sources, (s) => `model-${s}`),
      ),
    );
    expect(weighted - score(qs, () => null)).toBeGreaterThan(0.03);
  });
});
