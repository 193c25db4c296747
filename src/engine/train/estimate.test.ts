import { describe, expect, it } from 'vitest';
import { makeConfig, paramCount } from '../model/config.ts';
import { estimateMemory } from './estimate.ts';
import { PRESETS } from './settings.ts';

describe('estimateMemory', () => {
  it('counts the paper preset at about 53M parameters, with its embedding as the largest buffer', () => {
    const cfg = makeConfig(PRESETS.paper);
    const e = estimateMemory(cfg, 4, false, { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 30 });
    expect(e.params).toBe(paramCount(cfg));
    expect(e.params).toBeGreaterThan(52e6);
    expect(e.params).toBeLessThan(54e6);
    // 4 candidates × 4 heads × 2048² scores × 4 bytes = 256 MiB > the 147 MiB embedding.
    expect(e.largestBufferBytes).toBe(4 * 4 * 4 * 2048 * 2048);
    expect(e.warnings).toEqual([]);
  });

  it('warns when one buffer exceeds the adapter binding limit, and when the total is large', () => {
    const cfg = makeConfig(PRESETS.paper);
    const e = estimateMemory(cfg, 64, false, { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 128 * 2 ** 20 });
    expect(e.warnings.some((w) => /maxStorageBufferBindingSize/.test(w))).toBe(true);
    expect(e.warnings.some((w) => /GPU memory/.test(w))).toBe(true);
  });

  it('grows with the candidates per pass, which micro-batching bounds', () => {
    const cfg = makeConfig(PRESETS.small);
    const whole = estimateMemory(cfg, 256, false, null);
    const micro = estimateMemory(cfg, 8, true, null);
    expect(micro.trainingBytes).toBeLessThan(whole.trainingBytes / 5);
    expect(whole.warnings).toEqual([expect.stringMatching(/GPU memory/)]);
  });
});
