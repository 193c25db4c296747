import { describe, expect, it } from 'vitest';
import { makeConfig } from './config.ts';
import { activationBytesPerCandidate, autoMicroBatch } from './autoMicroBatch.ts';
import { PRESETS } from '../train/settings.ts';

describe('autoMicroBatch', () => {
  it('keeps small steps in one pass', () => {
    expect(autoMicroBatch(makeConfig(PRESETS.tiny), 4, 256)).toBeUndefined();
  });

  it('splits a 256-candidate paper-size group into passes that fit the budget', () => {
    const cfg = makeConfig(PRESETS.paper);
    const mb = autoMicroBatch(cfg, 256, 2048)!;
    expect(mb).toBeGreaterThanOrEqual(1);
    expect(mb).toBeLessThan(256);
    const per = activationBytesPerCandidate(cfg, 2048);
    expect(mb === 1 || mb * per <= 256 * 1024 ** 2).toBe(true);
    expect((mb + 1) * per).toBeGreaterThan(256 * 1024 ** 2);
  });

  it('judges length by the longest candidate, capped at maxLen', () => {
    const cfg = makeConfig(PRESETS.small);
    expect(autoMicroBatch(cfg, 16, 100)).toBeUndefined();
    expect(autoMicroBatch(cfg, 64, 5000)).toBe(autoMicroBatch(cfg, 64, 512));
    expect(autoMicroBatch(cfg, 64, 512)).toBeLessThan(64);
  });
});
