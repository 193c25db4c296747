/**
 * Pins ECE's interval across the app and python/: python/tests/golden/ece_interval.json holds picks
 * (calibrationCases.ts) with the ECE and interval eceInterval gives them; this test checks the app still
 * gives exactly those, python/tests/test_ece_interval.py that eorm.selection's ece_interval does. After a
 * deliberate change, rewrite the file with
 *   EORM_WRITE_GOLDEN=1 npx vitest run src/engine/metrics/calibration/calibration.golden.test.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeGolden as decode, encodeGolden as encode } from '../../testing/goldenJson.ts';
import { PYTHON_DIR } from '../../testing/pythonNode.ts';
import { BOOTSTRAP_RESAMPLES } from '../bootstrap.ts';
import { eceInterval, reliability } from './calibration.ts';
import { calibratedPicks, noisyPicks } from './calibrationCases.ts';

const GOLDEN = join(PYTHON_DIR, 'tests/golden/ece_interval.json');

describe('ECE interval golden (app ↔ eorm.selection.ece_interval)', () => {
  it('gives the ECE and interval recorded for python/tests/golden/ece_interval.json', () => {
    const picks = [{ name: 'calibrated', seed: 42, ...calibratedPicks() }, ...[1, 2, 3].map((seed) => ({ name: `noisy-${seed}`, seed, ...noisyPicks(seed) }))];
    const cases = picks.map((c) => ({
      ...c,
      ece: reliability(c.probability, c.correct).ece,
      eceCi: eceInterval(c.probability, c.correct, BOOTSTRAP_RESAMPLES, c.seed),
    }));
    if (process.env.EORM_WRITE_GOLDEN === '1') {
      writeFileSync(
        GOLDEN,
        `${encode({ note: 'Written by src/engine/metrics/calibration.golden.test.ts (EORM_WRITE_GOLDEN=1); do not edit.', resamples: BOOTSTRAP_RESAMPLES, cases })}\n`,
      );
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: write it with EORM_WRITE_GOLDEN=1`).toBe(true);
    const golden = decode(readFileSync(GOLDEN, 'utf8')) as { resamples: number; cases: typeof cases };
    expect(golden.resamples).toBe(BOOTSTRAP_RESAMPLES);
    expect(golden.cases).toEqual(cases);
    for (const c of cases) {
      expect(c.eceCi.lo).toBeLessThanOrEqual(c.ece);
      expect(c.eceCi.hi).toBeGreaterThanOrEqual(c.ece);
    }
  });
});
