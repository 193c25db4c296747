import { describe, expect, it } from 'vitest';
import { mixedGroups, splitGroups, trainableGroups } from './split.ts';

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
    const two = labelsOf([
      [1, 0],
      [0, 1],
    ]);
    const s = splitGroups(two);
    expect([s.train.length, s.val.length]).toEqual([1, 1]);
    expect(splitGroups(labelsOf([[1, 0]])).train.length).toBe(1);
    expect(splitGroups(small, { trainFraction: 1 }).val.length).toBe(0);
    expect(splitGroups(small, { trainFraction: 0.5 }).train.length).toBe(5);
    expect(() => splitGroups(small, { trainFraction: 0 })).toThrow(/trainFraction/);
  });
});

/** `labelsOf` with a source per candidate (null: none), as trainingView() carries them. */
function withSourcesOf(groups: number[][], sources: (string | null)[][]) {
  const names: string[] = [];
  const index = Int32Array.from(sources.flat(), (s) => {
    if (s === null) return -1;
    if (!names.includes(s)) names.push(s);
    return names.indexOf(s);
  });
  return { ...labelsOf(groups), sources: { names, index } };
}

describe("splitGroups, kind 'all'", () => {
  it('holds out the fraction of every group, and trains on the groups with both labels among the rest', () => {
    const s = splitGroups(small, { kind: 'all' });
    expect(s.kind).toBe('all');
    // 14 groups: round(0.8 · 14) = 11 in the training part, 3 held out whatever their labels.
    expect(s.val.length).toBe(3);
    const trainable = new Set(trainableGroups(small));
    for (const g of s.train) expect(trainable.has(g)).toBe(true);
    // The training part minus its single-label groups: nothing else is dropped, and nothing is in both parts.
    const val = new Set(s.val);
    const rest = Array.from({ length: 14 }, (_, g) => g).filter((g) => !val.has(g));
    expect(Array.from(s.train).sort((a, b) => a - b)).toEqual(rest.filter((g) => trainable.has(g)));
  });

  it('is reproducible, seed-dependent, and validation holds groups of every kind', () => {
    const many = labelsOf(Array.from({ length: 731 }, (_, i) => (i % 5 === 0 ? [1, 1] : i % 7 === 0 ? [0, 0, 0] : [1, 0, i % 2])));
    const a = splitGroups(many, { seed: 7, kind: 'all' });
    expect(splitGroups(many, { seed: 7, kind: 'all' })).toEqual(a);
    expect(splitGroups(many, { seed: 8, kind: 'all' }).val).not.toEqual(a.val);
    expect(a.val.length).toBe(731 - Math.round(731 * 0.8));
    const mixed = new Set(trainableGroups(many));
    const valMixed = mixedGroups(many, a.val);
    expect(valMixed.length).toBeGreaterThan(0);
    expect(valMixed.length).toBeLessThan(a.val.length); // single-label groups are validated on too
    for (const g of valMixed) expect(mixed.has(g)).toBe(true);
  });

  it("'mixed' is the default and the split every record without a kind means", () => {
    expect(splitGroups(small)).toEqual(splitGroups(small, { kind: 'mixed' }));
    expect(splitGroups(small).kind).toBe('mixed');
    expect(() => splitGroups(small, { kind: 'some' as never })).toThrow(/kind/);
  });
});

describe('splitGroups with held-out sources', () => {
  // Four groups, sources p and q (and one candidate without a source).
  const data = withSourcesOf(
    [
      [1, 0, 1, 0],
      [1, 0, 0, 1],
      [0, 1, 1, 0],
      [1, 0, 1, 0],
      [0, 0, 1, 1],
    ],
    [
      ['p', 'p', 'q', 'q'],
      ['p', 'q', 'p', 'q'],
      ['p', 'p', 'q', null],
      ['q', 'q', 'p', 'p'],
      ['p', 'q', 'p', 'q'],
    ],
  );

  it('holds out the same groups; trains on the other sources, validates on the held-out ones', () => {
    for (const kind of ['mixed', 'all'] as const) {
      const plain = splitGroups(data, { seed: 5, kind, trainFraction: 0.6 });
      const s = splitGroups(data, { seed: 5, kind, trainFraction: 0.6, holdoutSources: ['q'] });
      expect(s.holdoutSources).toEqual(['q']);
      const inVal = new Set(s.val);
      const { index, names } = data.sources;
      for (let g = 0; g < 5; g++) {
        for (let i = data.groupStart[g]; i < data.groupStart[g + 1]; i++) {
          const isQ = index[i] >= 0 && names[index[i]] === 'q';
          const inValPart = plain.val.includes(g);
          expect(s.keep![i], `group ${g} candidate ${i}`).toBe((inValPart ? isQ : !isQ) ? 1 : 0);
        }
      }
      // Same groups held out (those with a q candidate); training only where p's candidates carry both labels.
      expect(Array.from(s.val)).toEqual(Array.from(plain.val));
      for (const g of s.train) expect(inVal.has(g)).toBe(false);
      expect(Array.from(s.train)).toEqual(Array.from(mixedGroups(data, plain.train, s.keep)));
    }
  });

  it('with nothing held out, every group trains on its candidates not from q (a candidate without a source included)', () => {
    const s = splitGroups(data, { seed: 5, kind: 'mixed', trainFraction: 1, holdoutSources: ['q'] });
    expect(s.val.length).toBe(0);
    // Kept labels per group: [1,0] [1,0] [0,1,0] [1,0] [0,1]: every group still carries both labels.
    expect(Array.from(s.train).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(s.keep!)).toEqual([1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0]);
  });

  it('needs the candidates’ sources', () => {
    expect(() => splitGroups(small, { holdoutSources: ['q'] })).toThrow(/source/);
    expect(splitGroups(small, { holdoutSources: [] }).keep).toBeUndefined();
  });
});
