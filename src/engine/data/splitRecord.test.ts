import { describe, expect, it } from 'vitest';
import { recordedShape } from './olderRecords.ts';
import { describeSplit, readRecordedSplit, splitRecord } from './splitRecord.ts';

const hash = `sha256:${'0f'.repeat(32)}`;

describe('readRecordedSplit', () => {
  it('prefers the whole split, as both sides write it', () => {
    const training = { splitSeed: 3, settings: { seed: 4, train_fraction: 0.5 }, split: { seed: 7, trainFraction: 0.9, dataset: hash } };
    // A split without a kind was made before kinds: 'mixed'.
    expect(readRecordedSplit(training)).toEqual({ split: { seed: 7, trainFraction: 0.9, dataset: hash, kind: 'mixed' }, problem: null });
    expect(readRecordedSplit({ split: { seed: 7, trainFraction: 1, dataset: null } }).split).toEqual({
      seed: 7,
      trainFraction: 1,
      dataset: null,
      kind: 'mixed',
    });
  });

  it("falls back on older files: the app's splitSeed at 0.8, python/'s settings with their train_fraction (0.8 when absent)", () => {
    expect(readRecordedSplit({ splitSeed: 3, settings: { seed: 42 } }).split).toEqual({ seed: 3, trainFraction: 0.8, dataset: null, kind: 'mixed' });
    expect(readRecordedSplit({ settings: { seed: 4, train_fraction: 0.9 } }).split).toEqual({ seed: 4, trainFraction: 0.9, dataset: null, kind: 'mixed' });
    expect(readRecordedSplit({ settings: { seed: 4 } }).split).toEqual({ seed: 4, trainFraction: 0.8, dataset: null, kind: 'mixed' });
    expect(readRecordedSplit({ settings: { seed: 4, train_fraction: 0 } }).split).toBeNull();
    expect(readRecordedSplit({ description: 'no split' })).toEqual({ split: null, problem: null });
  });

  it('names the field of a split it cannot read, and then trusts no field (as python/ does)', () => {
    expect(readRecordedSplit({ splitSeed: 3, split: { seed: 7, trainFraction: 2, dataset: hash } })).toEqual({
      split: null,
      problem: 'split.trainFraction is 2, not a number in (0, 1]',
    });
    expect(readRecordedSplit({ split: { seed: 1.5, trainFraction: 0.8 } }).problem).toBe('split.seed is 1.5, not an integer');
    expect(readRecordedSplit({ split: { seed: 1, trainFraction: 0.8, dataset: 'train.jsonl' } }).problem).toBe(
      'split.dataset is "train.jsonl", not "sha256:" and 64 hex digits',
    );
    expect(readRecordedSplit({ split: [7] })).toEqual({ split: null, problem: 'split is not an object' });
  });

  it('reads the kind and held-out sources, and names a bad one', () => {
    const split = { seed: 7, trainFraction: 0.8, dataset: hash, kind: 'all', holdoutSources: ['a', 'b'] };
    expect(readRecordedSplit({ split }).split).toEqual(split);
    expect(readRecordedSplit({ split: { ...split, holdoutSources: [] } }).split).toEqual({ seed: 7, trainFraction: 0.8, dataset: hash, kind: 'all' });
    expect(readRecordedSplit({ split: { ...split, kind: 'some' } }).problem).toBe('split.kind is "some", not "mixed" or "all"');
    expect(readRecordedSplit({ split: { ...split, holdoutSources: 'a' } }).problem).toBe('split.holdoutSources is "a", not a list of source names');
    expect(readRecordedSplit({ split: { ...split, holdoutSources: [1] } }).split).toBeNull();
  });

  it('writes kind always and held-out sources only when there are some; an unrecorded kind is mixed', () => {
    expect(splitRecord(1, 0.8, hash, 'all')).toEqual({ seed: 1, trainFraction: 0.8, dataset: hash, kind: 'all' });
    expect(splitRecord(1, 0.8, null, 'mixed', ['x'])).toEqual({ seed: 1, trainFraction: 0.8, dataset: null, kind: 'mixed', holdoutSources: ['x'] });
    expect(recordedShape(undefined)).toEqual({ kind: 'mixed', holdoutSources: [] });
    expect(recordedShape({})).toEqual({ kind: 'mixed', holdoutSources: [] });
    expect(recordedShape(splitRecord(1, 0.8, null, 'all', ['x']))).toEqual({ kind: 'all', holdoutSources: ['x'] });
  });

  it('describes a split in words', () => {
    expect(describeSplit({ seed: 7, trainFraction: 0.9, kind: 'all' })).toBe('seed 7, 90% of all questions for training (validation holds every kind)');
    expect(describeSplit({ seed: 7, trainFraction: 0.9, kind: 'mixed', holdoutSources: ['a', 'b'] })).toBe(
      'seed 7, 90% of the groups for training, sources held out for validation: a, b',
    );
    expect(describeSplit({ seed: 7, trainFraction: 0.9 })).toBe('seed 7, 90% of the groups for training');
    expect(describeSplit({ seed: 0, trainFraction: 0.8 })).toBe('seed 0, 80% of the groups for training');
  });
});
