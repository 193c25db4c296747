import { describe, expect, it } from 'vitest';
import { rerankAnswers } from '../metrics/rerankProbability.ts';
import type { ProbabilityMap } from '../metrics/selectionTypes.ts';
import { pickQuestion, resolveRule } from './picksRule.ts';

const vote: ProbabilityMap = { temperature: 1, platt: null, selector: null, use: 'vote' };
const selectorMap: ProbabilityMap = { temperature: 0.5, platt: { a: 1.3, b: -0.2 }, selector: [0.1, 4, -2, -1, 0.3], use: 'selector' };

// Answer "7" has the most votes; "9" has the single lowest energy; one candidate has no answer.
const answers = ['7', '9', '7', null, '7', '3'];
const energies = Float32Array.from([0.4, -2, 0.1, -3, 0.3, 1]);

describe('pickQuestion', () => {
  it('weighted vote: the heaviest answer, its lowest-energy candidate, and the vote probabilities Rerank shows', () => {
    const p = pickQuestion(answers, energies, vote, 'weightedVote');
    const rows = rerankAnswers(answers, energies, vote);
    const top = rows.find((r) => r.picked)!;
    expect(p.answer).toBe(top.answer);
    expect(p.index).toBe(top.candidates[0]);
    expect(p.probability).toBe(top.probability);
    const others = rows.filter((r) => r.answer !== null && r !== top).sort((a, b) => b.probability - a.probability);
    expect(p.runnerUp).toBe(others[0].answer);
    expect(p.runnerUpProbability).toBe(others[0].probability);
  });

  it('T = 1: the lowest single energy wins the vote over three higher ones', () => {
    const p = pickQuestion(answers, energies, vote, 'weightedVote');
    expect(p).toMatchObject({ answer: '9', index: 1, runnerUp: '7' });
  });

  it('majority: the most frequent answer, picked at its lowest energy; its probability its share of the candidates', () => {
    const p = pickQuestion(answers, energies, vote, 'majority');
    expect(p).toMatchObject({ answer: '7', index: 2 });
    expect(p.probability).toBe(3 / 6);
  });

  it('Best-of-N: the lowest energy candidate, even one with no answer (then no probability)', () => {
    const p = pickQuestion(answers, energies, vote, 'bestOfN');
    expect(p.index).toBe(3);
    expect(p.answer).toBeNull();
    expect(p.probability).toBeNull();
    expect(p.runnerUp).toBe('9');
  });

  it('selector: the selector probabilities pick; Platt maps the vote shares under weighted vote', () => {
    const s = pickQuestion(answers, energies, selectorMap, 'selector');
    const rows = rerankAnswers(answers, energies, selectorMap);
    const top = rows.find((r) => r.picked)!;
    expect(s).toMatchObject({ answer: top.answer, index: top.candidates[0], probability: top.probability });
    const w = pickQuestion(answers, energies, selectorMap, 'weightedVote');
    const platt = rerankAnswers(answers, energies, { ...selectorMap, use: 'vote' }).find((r) => r.picked)!;
    expect(w.probability).toBe(platt.probability);
  });

  it('no answer at all: the lowest energy candidate, no probability, no runner-up', () => {
    expect(pickQuestion([null, null], Float32Array.from([1, 0]), vote, 'weightedVote')).toEqual({
      index: 1,
      answer: null,
      probability: null,
      runnerUp: null,
      runnerUpProbability: null,
    });
  });
});

describe('resolveRule', () => {
  it("'recommended' is the map's rule; the selector only where fitted", () => {
    expect(resolveRule('recommended', selectorMap, true)).toBe('selector');
    expect(resolveRule('recommended', vote, true)).toBe('weightedVote');
    expect(resolveRule('majority', selectorMap, true)).toBe('majority');
    expect(() => resolveRule('selector', vote, true)).toThrow(/selector was not fitted/);
    expect(resolveRule('recommended', { ...vote, recommended: 'generatorVoteFree' }, true)).toBe('generatorVoteFree');
    expect(() => resolveRule('generatorVote', vote, true)).toThrow(/learnt no generator weights/);
  });

  it('without a model: the generator vote learnt without labels where the set names generators, else majority vote; nothing that needs energies', () => {
    expect(resolveRule('recommended', null, true)).toBe('generatorVoteFree');
    expect(resolveRule('recommended', null, false)).toBe('majority');
    expect(() => resolveRule('bestOfN', null, true)).toThrow(/needs a model/);
  });
});

describe('coherent probabilities (issue 48, point 5)', () => {
  const withUnanimous: ProbabilityMap = { ...selectorMap, use: 'vote', unanimous: { right: 156, questions: 163 } };

  it('a question whose candidates all agree (or with one candidate) gets the held-out rate of such questions, not 1', () => {
    const rate = (156 + 0.5) / (163 + 1);
    expect(pickQuestion(['4', '4', '4'], Float32Array.from([3, -1, 0.5]), withUnanimous, 'weightedVote').probability).toBeCloseTo(rate, 15);
    expect(pickQuestion(['4'], Float32Array.from([9]), withUnanimous, 'selector').probability).toBeCloseTo(rate, 15);
  });

  it("the picked answer, the runner-up and the rest sum to 1 under every rule (Platt's map, the selector, the votes)", () => {
    for (const rule of ['weightedVote', 'selector', 'majority', 'bestOfN', 'generatorVoteFree'] as const) {
      const rows = rerankAnswers(
        answers,
        energies,
        withUnanimous,
        rule === 'selector'
          ? { by: 'coefficients' }
          : rule === 'majority'
            ? { by: 'counts' }
            : rule === 'generatorVoteFree'
              ? { by: 'generators', weights: null }
              : { by: 'vote' },
      );
      expect(
        rows.reduce((a, r) => a + r.probability, 0),
        rule,
      ).toBeCloseTo(1, 12);
      const p = pickQuestion(answers, energies, withUnanimous, rule);
      expect((p.probability ?? 0) + (p.runnerUpProbability ?? 0), rule).toBeLessThanOrEqual(1 + 1e-12);
    }
  });
});
