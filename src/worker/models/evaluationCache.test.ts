import { describe, expect, it } from 'vitest';
import type { Evaluation } from '../../engine/score/evaluation.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { Datasets } from '../data/datasets.ts';
import { EvaluationCache } from './evaluationCache.ts';
import type { ModelSlots } from './modelSlots.ts';
import type { DataRole } from '../protocols/data.ts';

/** The two things the cache reads: each role's data version and the selected slot's revision. */
function setup() {
  const versions: Record<DataRole, number> = { train: 1, test: 1 };
  const datasets = { version: (role: DataRole) => versions[role] } as unknown as Datasets;
  const models = { active: 'imported', revision: () => 3 } as unknown as ModelSlots;
  const cache = new EvaluationCache(datasets, models);
  const entry = { step: 0, data: {} as LoadedData, groups: new Uint32Array(0), maxLen: 8, evaluation: {} as Evaluation };
  return { versions, cache, entry };
}

describe('EvaluationCache', () => {
  it('a test evaluation goes stale when the training data (its temperature fit) changes, not only the test file', () => {
    const { versions, cache, entry } = setup();
    cache.store('test', 'imported', entry);
    expect(cache.get('test', 0, false)).not.toBeNull();
    versions.train++;
    expect(cache.get('test', 0, false)).toBeNull();
    cache.store('test', 'imported', entry);
    versions.test++;
    expect(cache.get('test', 0, false)).toBeNull();
  });

  it('validation depends on the training data only', () => {
    const { versions, cache, entry } = setup();
    cache.store('val', 'imported', entry);
    versions.test++;
    expect(cache.get('val', 0, false)).not.toBeNull();
    versions.train++;
    expect(cache.get('val', 0, false)).toBeNull();
  });

  it('an evaluation stored under the key taken when its work began is stale if the training data moved meanwhile', () => {
    const { versions, cache, entry } = setup();
    const key = cache.key('test', 'imported');
    versions.train++; // a training file loaded while the test set was scored
    cache.store('test', 'imported', entry, key);
    expect(cache.get('test', 0, false)).toBeNull();
  });
});
