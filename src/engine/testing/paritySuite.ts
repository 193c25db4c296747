import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { configFromReference, paramShapes } from '../model/config.ts';
import { type Check, type CheckKind, runParity } from './fixtureParity.ts';
import { readFixture } from './readFixtureNode.ts';

/** The fixture parity checks as a Vitest suite on one tfjs backend (Node), each kind against its tolerance. */
export function paritySuite(backend: 'cpu' | 'wasm', tolerance: Record<CheckKind, number>): void {
  let checks: Check[] = [];
  const fixture = readFixture();

  beforeAll(async () => {
    expect(await tf.setBackend(backend)).toBe(true);
    checks = await runParity(fixture, { microBatches: [1, 3, 1000] });
  }, 600_000);

  describe(`TransEBM on the tfjs ${backend} backend equals the PyTorch reference`, () => {
    const kinds: CheckKind[] = ['energy', 'loss', 'inter', 'gradNormRel', 'grad', 'microBatch', 'param', 'zeroGradParam', 'decayRel', 'clipCoef'];
    for (const kind of kinds) {
      it(`${kind} checks are within ${tolerance[kind]}`, () => {
        const mine = checks.filter((c) => c.kind === kind);
        expect(mine.length).toBeGreaterThan(0);
        const failing = mine.filter((c) => !(c.error <= tolerance[kind]));
        expect(failing.map((c) => `${c.name}: ${c.error}`)).toEqual([]);
      });
    }

    it('covers every parameter gradient and step, every group and micro-batches 1, 3 and ≥ group size', () => {
      // Counted from the fixture itself, so fixtures made with another config (EORM_FIXTURES) are covered in full too.
      const params = paramShapes(configFromReference(fixture.referenceConfig)).map(([name]) => name);
      const names = new Set(checks.map((c) => c.name));
      for (const name of params) {
        expect(names.has(`grad.${name}`), `grad.${name}`).toBe(true);
        for (const p of ['step1.', 'step2.', 'clip.step1.', 'clip.step2.']) expect(names.has(`${p}${name}`), `${p}${name}`).toBe(true);
      }
      fixture.caseJson.groups.forEach((_, g) => expect(names.has(`energies g${g}`)).toBe(true));
      expect([...names].filter((n) => n.startsWith('microBatch')).length).toBe(3);
    });
  });
}
