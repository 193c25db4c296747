import { describe, expect, it } from 'vitest';
import { FLAG_MIN_PICKS, type SourcedGroup, sourceAudit } from './sources.ts';

const g = (energies: number[], labels: number[], sources: number[]): SourcedGroup => ({ energies, labels, sources });

/** Groups of two: source 0 then source 1, with these labels and energies. */
const pairs = (count: number, labels: [number, number], energies: (k: number) => [number, number]): SourcedGroup[] =>
  Array.from({ length: count }, (_, k) => g(energies(k), labels, [0, 1]));

describe('sourceAudit', () => {
  it('has no rows when no candidate names a source', () => {
    expect(sourceAudit([g([1, 2], [1, 0], [-1, -1])], [])).toEqual([]);
    expect(sourceAudit([], ['a'])).toEqual([]);
  });

  it('computes every figure by hand: ties split, chance, earned, pairwise inside the source, mean energies', () => {
    const rows = sourceAudit(
      [
        // Tie at E=0 between B (wrong) and A (right): each gets half the pick. Both correct answers are A's.
        g([1, 0, 0, 2], [1, 0, 1, 0], [0, 1, 0, 1]),
        // No correct answer: "earned" falls back to chance; the unnamed candidate belongs to no row.
        g([3, 1, 2], [0, 0, 0], [0, 1, -1]),
        // A's correct (0.5) beats both wrong ones: the A–A pair counts once, the A–B pair for both.
        g([0.5, 2, 1], [1, 0, 0], [0, 0, 1]),
        // Empty: not counted.
        g([], [], []),
      ],
      ['A', 'B'],
    );
    expect(rows.map((r) => r.source)).toEqual(['A', 'B']);
    const [a, b] = rows;
    expect(a.candidates).toBe(5);
    expect(a.shareCorrect).toBeCloseTo(0.6, 15);
    expect(a.picks).toBeCloseTo(1.5, 15);
    expect(a.pickedShare).toBeCloseTo(0.5, 15);
    expect(a.chanceShare).toBeCloseTo(0.5, 15);
    expect(a.earnedShare).toBeCloseTo(7 / 9, 15);
    // Group 1: pairs (E1,E0) 0, (E1,E2) 1, (E0,E0) ½, (E0,E2) 1, each A–B; group 3: two right.
    expect(a.pairwise).toBe(4.5 / 6);
    expect(a.meanEnergyCorrect).toBeCloseTo(0.5, 15);
    expect(a.meanEnergyIncorrect).toBeCloseTo(2.5, 15);
    expect(b.candidates).toBe(4);
    expect(b.shareCorrect).toBe(0);
    expect(b.pickedShare).toBeCloseTo(0.5, 15);
    expect(b.chanceShare).toBeCloseTo(7 / 18, 15);
    expect(b.earnedShare).toBeCloseTo(1 / 9, 15);
    expect(b.pairwise).toBe(3.5 / 5);
    expect(b.meanEnergyCorrect).toBeNaN();
    expect(b.meanEnergyIncorrect).toBeCloseTo(1, 15);
    expect(a.flagged || b.flagged).toBe(false);
  });

  it('ranks non-finite energies last, and splits a pick among candidates that are all non-finite', () => {
    const [a, b] = sourceAudit([g([NaN, 1], [1, 0], [0, 1]), g([NaN, Infinity], [1, 0], [0, 1])], ['a', 'b']);
    expect(a.picks).toBe(0.5);
    expect(b.picks).toBe(1.5);
    expect(a.pairwise).toBe(0.25); // lost to 1, tied at +Infinity
    expect(a.meanEnergyCorrect).toBeNaN();
    expect(b.meanEnergyIncorrect).toBe(Infinity);
  });

  it('shares of all sources sum to 1 when every candidate names its source', () => {
    const groups = Array.from({ length: 30 }, (_, k) => g([k % 3, (k * 7) % 5, (k * 11) % 4], [k % 2, 1, 0], [0, 1, 2]));
    const rows = sourceAudit(groups, ['x', 'y', 'z']);
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
    expect(sum((r) => r.pickedShare)).toBeCloseTo(1, 12);
    expect(sum((r) => r.chanceShare)).toBeCloseTo(1, 12);
    expect(sum((r) => r.earnedShare)).toBeCloseTo(1, 12);
  });

  it('flags a source picked far above both chance and what its correct answers earn', () => {
    // A is always wrong and always preferred: picked 100%, chance 50%, earned 0%.
    const [a, b] = sourceAudit(
      pairs(FLAG_MIN_PICKS, [0, 1], () => [0, 1]),
      ['A', 'B'],
    );
    expect(a.pickedShare).toBe(1);
    expect(a.flagged).toBe(true);
    expect(b.flagged).toBe(false);
  });

  it('does not flag on too few picks', () => {
    const [a] = sourceAudit(
      pairs(FLAG_MIN_PICKS - 1, [0, 1], () => [0, 1]),
      ['A', 'B'],
    );
    expect(a.pickedShare).toBe(1);
    expect(a.flagged).toBe(false);
  });

  it('does not flag a strong source picked as often as its correct answers deserve', () => {
    // B is always right and always picked: twice its chance share, but exactly its earned share.
    const [, b] = sourceAudit(
      pairs(100, [0, 1], () => [1, 0]),
      ['A', 'B'],
    );
    expect(b.pickedShare).toBe(1);
    expect(b.chanceShare).toBe(0.5);
    expect(b.flagged).toBe(false);
  });

  it('does not flag a weak source that an uninformative model picks at chance', () => {
    // A is always wrong (earns 0) but picked half the time, as a coin would: no preference for it.
    const [a] = sourceAudit(
      pairs(100, [0, 1], (k) => (k % 2 === 0 ? [0, 1] : [1, 0])),
      ['A', 'B'],
    );
    expect(a.pickedShare).toBe(0.5);
    expect(a.earnedShare).toBe(0);
    expect(a.flagged).toBe(false);
  });

  it('rejects malformed input', () => {
    expect(() => sourceAudit([g([1, 2], [1, 0], [0])], ['a'])).toThrow(RangeError);
    expect(() => sourceAudit([g([1], [1], [3])], ['a'])).toThrow(/source index 3/);
  });
});
