import { describe, expect, it } from 'vitest';
import { splitGroups, trainableGroups } from './split.ts';

/** Labels and group boundaries from per-group label lists. */
function labelsOf(groups: number[][]) {
  const groupStart = new Uint32Array(groups.length + 1);
  groups.forEach((g, i) => (groupStart[i + 1] = groupStart[i] + g.length));
  return { labels: Uint8Array.from(groups.flat()), groupStart };
}

// 14 groups; 10 have both labels (0, 2, 4, 6, 7, 8, 9, 11, 12, 13).
const small = labelsOf([[1, 0], [1, 1], [0, 1, 0], [0, 0], [1, 0, 1, 0], [1], [0, 1], [1, 0, 0], [0, 0, 1], [1, 1, 0], [0], [1, 0], [0, 1, 1, 1], [1, 0]]);

describe('trainableGroups', () => {
  it('keeps groups with at least one correct and one incorrect candidate', () => {
    expect(Array.from(trainableGroups(small))).toEqual([0, 2, 4, 6, 7, 8, 9, 11, 12, 13]);
  });
});

describe('splitGroups', () => {
  it('gives the pinned split for seed 42 (computed independently with a Python mulberry32 + Fisher–Yates)', () => {
    const { train, val } = splitGroups(small);
    expect(Array.from(train)).toEqual([0, 11, 6, 8, 4, 2, 12, 13]);
    expect(Array.from(val)).toEqual([7, 9]);
  });

  it('is reproducible, seed-dependent, and partitions the trainable groups 80/20', () => {
    const many = labelsOf(Array.from({ length: 731 }, (_, i) => (i % 5 === 0 ? [1, 1] : [1, 0, i % 2])));
    const a = splitGroups(many, { seed: 7 });
    expect(splitGroups(many, { seed: 7 })).toEqual(a);
    expect(splitGroups(many, { seed: 8 }).train).not.toEqual(a.train);
    const trainable = trainableGroups(many);
    expect(a.train.length).toBe(Math.round(trainable.length * 0.8));
    expect([...a.train, ...a.val].sort((x, y) => x - y)).toEqual(Array.from(trainable));
  });

  it('keeps both parts non-empty for tiny inputs, and honours the fraction', () => {
    const two = labelsOf([[1, 0], [0, 1]]);
    const s = splitGroups(two);
    expect([s.train.length, s.val.length]).toEqual([1, 1]);
    expect(splitGroups(labelsOf([[1, 0]])).train.length).toBe(1);
    expect(splitGroups(small, { trainFraction: 1 }).val.length).toBe(0);
    expect(splitGroups(small, { trainFraction: 0.5 }).train.length).toBe(5);
    expect(() => splitGroups(small, { trainFraction: 0 })).toThrow(/trainFraction/);
  });
});
