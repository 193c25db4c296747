import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Check, type CheckKind, runParity } from '../testing/parity.ts';
import { readFixture } from '../testing/readFixtureNode.ts';
import { FLOAT32_TOLERANCE as TOLERANCE } from '../testing/tolerances.ts';

let checks: Check[] = [];

beforeAll(async () => {
  await tf.setBackend('cpu');
  checks = await runParity(readFixture(), { microBatches: [1, 3, 1000] });
}, 600_000);

describe('TransEBM on the tfjs CPU backend equals the PyTorch reference', () => {
  const kinds: CheckKind[] = ['energy', 'loss', 'inter', 'gradNormRel', 'grad', 'microBatch', 'param', 'zeroGradParam', 'decayRel', 'clipCoef'];
  for (const kind of kinds) {
    it(`${kind} checks are within ${TOLERANCE[kind]}`, () => {
      const mine = checks.filter((c) => c.kind === kind);
      expect(mine.length).toBeGreaterThan(0);
      const failing = mine.filter((c) => !(c.error <= TOLERANCE[kind]));
      expect(failing.map((c) => `${c.name}: ${c.error}`)).toEqual([]);
    });
  }

  it('covers every parameter gradient and step, both groups and micro-batches 1, 3 and ≥ group size', () => {
    const names = checks.map((c) => c.name);
    expect(names.filter((n) => n.startsWith('grad.')).length).toBeGreaterThanOrEqual(31);
    for (const p of ['step1.', 'step2.', 'clip.step1.', 'clip.step2.']) expect(names.some((n) => n.startsWith(p))).toBe(true);
    expect(names.filter((n) => n.startsWith('microBatch')).length).toBe(3);
    expect(names).toContain('energies g1');
  });
});
