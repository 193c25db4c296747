import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS, DEFAULT_CONFIG, makeConfig, paramCount, validateConfig } from '../model/config.ts';

describe('config limits (validateConfig), which every file config passes through', () => {
  it('accept the paper-sized default and every size at its limit', () => {
    expect(validateConfig(DEFAULT_CONFIG)).toEqual([]);
    expect(validateConfig({ ...DEFAULT_CONFIG, maxLen: CONFIG_LIMITS.maxLen, positional: 'learned' })).toEqual([]);
    const small = makeConfig({ vocabSize: 16, dModel: 8, nHeads: 2, nLayers: 1, ffnDim: 8, clsId: 1, sepId: 1, padId: 1 });
    for (const k of ['nLayers', 'ffnDim', 'vocabSize', 'maxLen'] as const) expect(validateConfig({ ...small, [k]: CONFIG_LIMITS[k] }), k).toEqual([]);
    // dModel at its limit is a size no layer count fits into the parameter limit: only that is reported.
    expect(validateConfig({ ...small, dModel: CONFIG_LIMITS.dModel, nHeads: CONFIG_LIMITS.nHeads })).toEqual([
      expect.stringMatching(/^the model would have \d+ parameters/),
    ]);
  });

  it('refuse each size one above its limit, saying which and what was given', () => {
    for (const k of ['vocabSize', 'dModel', 'nHeads', 'nLayers', 'ffnDim', 'maxLen'] as const) {
      const v = CONFIG_LIMITS[k] + 1;
      expect(validateConfig({ ...DEFAULT_CONFIG, [k]: v })).toContain(`${k} must be at most ${CONFIG_LIMITS[k]} (got ${v})`);
    }
  });

  it('refuse a config whose parameters a browser tab cannot hold, counting them like paramCount', () => {
    const cfg = { ...DEFAULT_CONFIG, vocabSize: 1 << 20, dModel: 1024, ffnDim: 4096 };
    expect(paramCount(cfg)).toBe(1_099_986_945);
    expect(validateConfig(cfg)).toEqual([`the model would have ${paramCount(cfg)} parameters, more than the 1000000000 a browser tab can hold`]);
    expect(validateConfig({ ...cfg, vocabSize: 900_000 })).toEqual([]);
  });
});
