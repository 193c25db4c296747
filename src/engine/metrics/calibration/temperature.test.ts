import { describe, expect, it } from 'vitest';
import type { ScoredGroup } from '../summary.ts';
import { TEMPERATURE_MAX, TEMPERATURE_MIN, correctMassNll, fitGroups, fitTemperature } from './temperature.ts';

const right = (eRight: number, eWrong: number): ScoredGroup => ({ energies: [eRight, eWrong], labels: [1, 0], answers: ['r', 'w'] });

describe('fitGroups', () => {
  it('keeps only groups whose correct mass can move: a finite candidate that may be right and one that may be wrong', () => {
    const kept = fitGroups([
      right(0, 1),
      { energies: [0, 1], labels: [1, 1], answers: ['a', 'b'] }, // all right
      { energies: [0, 1], labels: [0, 0], answers: ['a', 'b'] }, // all wrong
      { energies: [0, NaN], labels: [1, 0], answers: ['a', 'b'] }, // the wrong one has no weight
      { energies: [0, 1], labels: [1, 1], answers: ['a', null] }, // unanswered mass counts as wrong
      { energies: [0, 1], labels: [1, 0], answers: ['a', 'a'] }, // one answer, half right
    ]);
    expect(kept.length).toBe(3);
    expect(Array.from(kept[1].share)).toEqual([1, 0]);
    expect(Array.from(kept[2].share)).toEqual([0.5, 0.5]);
  });
});

describe('correctMassNll', () => {
  it('is the mean −log of the mass on correct answers', () => {
    const g = fitGroups([right(0, 1), { energies: [0, 2, 1], labels: [1, 0, 0], answers: ['a', 'a', 'b'] }]);
    const t = 0.7;
    const w = (e: number) => Math.exp(-e / t);
    const m1 = w(0) / (w(0) + w(1));
    const m2 = (0.5 * (w(0) + w(2))) / (w(0) + w(2) + w(1)); // 'a' is half right
    expect(correctMassNll(g, t)).toBeCloseTo(-(Math.log(m1) + Math.log(m2)) / 2, 12);
  });

  it('stays finite at extreme temperatures (log-sum-exp)', () => {
    const g = fitGroups([right(50, 0)]);
    expect(correctMassNll(g, TEMPERATURE_MIN)).toBeCloseTo(5000, 6);
  });
});

describe('fitTemperature', () => {
  it('finds the analytic optimum: k groups ranked right and m wrong by an energy gap of 1 give T = 1 / ln(k/m)', () => {
    // NLL(x = 1/T) = k·log(1 + e^−x) + m·log(1 + e^x), minimal where e^x = k/m.
    const groups = [right(0, 1), right(0, 1), right(0, 1), right(1, 0)];
    const fit = fitTemperature(groups);
    expect(fit.groups).toBe(4);
    expect(fit.temperature).toBeCloseTo(1 / Math.log(3), 5);
  });

  it('stops at the range: always ranked right → the smallest T, no better than chance → the largest', () => {
    expect(fitTemperature([right(0, 1), right(0, 2)]).temperature).toBeCloseTo(TEMPERATURE_MIN, 5);
    expect(fitTemperature([right(0, 1), right(1, 0)]).temperature).toBeCloseTo(TEMPERATURE_MAX, 3);
  });

  it('scales with the energies: energies × 3 give T × 3', () => {
    const groups = [right(0, 1), right(0, 1), right(0, 1), right(1, 0)];
    const scaled = groups.map((g) => ({ ...g, energies: Array.from(g.energies, (e) => 3 * e) }));
    expect(fitTemperature(scaled).temperature / fitTemperature(groups).temperature).toBeCloseTo(3, 4);
  });

  it('T = 1 and 0 groups when nothing can inform it', () => {
    expect(fitTemperature([])).toEqual({ temperature: 1, groups: 0 });
    expect(fitTemperature([{ energies: [0, 1], labels: [0, 0], answers: ['a', 'b'] }])).toEqual({ temperature: 1, groups: 0 });
  });
});
