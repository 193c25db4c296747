import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig } from '../../engine/model/config.ts';
import { type Params, initParams } from '../../engine/model/params.ts';
import { ModelSlots, type SlotModel } from './modelSlots.ts';

const cfg = makeConfig({ vocabSize: 16, dModel: 8, nHeads: 2, nLayers: 1, maxLen: 8, clsId: 15, sepId: 15, padId: 15 });
const model = (params: Params, source: SlotModel['source'] = 'imported'): SlotModel => ({ cfg, params, source, description: 'm', warnings: [], training: {} });
const disposed = (p: Params) => [...p.values()].map((v) => v.isDisposed);
// disposeParams also empties the map: an empty one is not alive.
const alive = (p: Params) => p.size > 0 && disposed(p).every((d) => !d);
const freed = (p: Params) => p.size === 0 || disposed(p).every((d) => d);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('ModelSlots', () => {
  it('keeps weights a reader holds through their replacement, and frees them when it lets go', () => {
    const slots = new ModelSlots();
    const [p1, p2] = [initParams(cfg, 1), initParams(cfg, 2)];
    const v1 = [...p1.values()];
    slots.set('imported', model(p1));
    const lease = slots.acquire('imported');
    const revision = slots.revision('imported');
    slots.set('imported', model(p2));
    expect(slots.revision('imported')).not.toBe(revision);
    expect(alive(p1)).toBe(true);
    lease.release();
    expect(v1.every((v) => v.isDisposed)).toBe(true);
    // A second release changes nothing: the new model stays.
    lease.release();
    expect(alive(p2)).toBe(true);
  });

  it('frees a replaced model nobody reads at once', () => {
    const slots = new ModelSlots();
    const p1 = initParams(cfg, 1);
    const v1 = [...p1.values()];
    slots.set('imported', model(p1));
    slots.set('imported', model(initParams(cfg, 2)));
    expect(v1.every((v) => v.isDisposed)).toBe(true);
  });

  it('clearing the trained slots waits for their readers too; the best checkpoint is a copy', () => {
    const slots = new ModelSlots();
    const latest = initParams(cfg, 1);
    slots.set('latest', model(latest, 'trained'));
    slots.snapshotBest('best', {});
    const reading = slots.acquire('best');
    const best = reading.model.params;
    expect(best).not.toBe(latest);
    slots.clearTrained();
    expect(freed(latest)).toBe(true);
    expect(alive(best)).toBe(true);
    reading.release();
    expect(freed(best)).toBe(true);
    expect(() => slots.acquire('best')).toThrow(/No best model yet/);
  });
});
