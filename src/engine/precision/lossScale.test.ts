import { describe, expect, it } from 'vitest';
import { AMP_RULE, type LossScaleState, initialLossScale, nextLossScale } from './lossScale.ts';

const run = (flags: boolean[], rule = { ...AMP_RULE, growthInterval: 3 }, from: LossScaleState = initialLossScale(rule)) => {
  const out: LossScaleState[] = [];
  let s = from;
  for (const f of flags) out.push((s = nextLossScale(s, f, rule)));
  return out;
};

describe('the AMP loss-scale rule', () => {
  it("starts at GradScaler's 2^16", () => {
    expect(initialLossScale()).toEqual({ scale: 65536, cleanSteps: 0 });
    expect(AMP_RULE).toEqual({ initScale: 65536, growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000 });
  });

  it('halves the scale on an overflow and starts the count again', () => {
    expect(run([true, false])).toEqual([
      { scale: 65536, cleanSteps: 1 },
      { scale: 32768, cleanSteps: 0 },
    ]);
    expect(run([false, false, false]).map((s) => s.scale)).toEqual([32768, 16384, 8192]);
  });

  it('doubles after growthInterval clean steps in a row, not before', () => {
    expect(run([true, true, true, true]).map((s) => [s.scale, s.cleanSteps])).toEqual([
      [65536, 1],
      [65536, 2],
      [131072, 0],
      [131072, 1],
    ]);
    // An overflow in between resets the count: the doubling waits for three clean steps after it.
    expect(run([true, true, false, true, true, true]).map((s) => s.scale)).toEqual([65536, 65536, 32768, 32768, 32768, 65536]);
  });

  it('takes 2000 clean steps to double by default', () => {
    let s = initialLossScale();
    for (let i = 0; i < 1999; i++) s = nextLossScale(s, true);
    expect(s).toEqual({ scale: 65536, cleanSteps: 1999 });
    expect(nextLossScale(s, true)).toEqual({ scale: 131072, cleanSteps: 0 });
  });

  it('never grows past float32', () => {
    const top = { scale: 2 ** 127, cleanSteps: 2 };
    expect(run([true], undefined, top)).toEqual([{ scale: 2 ** 127, cleanSteps: 0 }]);
  });
});
