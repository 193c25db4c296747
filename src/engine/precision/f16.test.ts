import { describe, expect, it } from 'vitest';
import { F16_MAX, F16_MIN_SUBNORMAL, f16Round, f16RoundArray } from './f16.ts';

describe('f16Round', () => {
  it('keeps values f16 holds exactly', () => {
    for (const x of [0, 1, -2, 0.5, 1 + 2 ** -10, 2048, F16_MAX, -F16_MAX, 2 ** -14, F16_MIN_SUBNORMAL, 3 * F16_MIN_SUBNORMAL]) expect(f16Round(x)).toBe(x);
  });

  it('rounds to the nearest f16 as binary16 stores it', () => {
    // 0.1 is 0x2E66 in binary16, 1/3 is 0x3555.
    expect(f16Round(0.1)).toBe(0.0999755859375);
    expect(f16Round(-0.1)).toBe(-0.0999755859375);
    expect(f16Round(1 / 3)).toBe(0.333251953125);
    // Above 2048 the spacing is 2, above 32768 it is 32.
    expect(f16Round(2049.2)).toBe(2050);
    expect(f16Round(40001)).toBe(40000);
  });

  it('breaks ties to the even neighbour', () => {
    expect(f16Round(1 + 2 ** -11)).toBe(1);
    expect(f16Round(1 + 3 * 2 ** -11)).toBe(1 + 2 ** -9);
    expect(f16Round(2051)).toBe(2052);
    expect(f16Round(2053)).toBe(2052);
  });

  it('overflows to infinity past the largest f16 and keeps non-finite values', () => {
    expect(f16Round(65519)).toBe(F16_MAX);
    expect(f16Round(65520)).toBe(Infinity);
    expect(f16Round(-1e6)).toBe(-Infinity);
    expect(f16Round(Infinity)).toBe(Infinity);
    expect(f16Round(NaN)).toBeNaN();
  });

  it('goes through the subnormals to zero', () => {
    expect(f16Round(2 ** -25)).toBe(0); // a tie between 0 and the smallest subnormal: even is 0
    expect(f16Round(1.5 * 2 ** -25)).toBe(F16_MIN_SUBNORMAL);
    expect(f16Round(2.6 * F16_MIN_SUBNORMAL)).toBe(3 * F16_MIN_SUBNORMAL);
    expect(f16Round(1e-9)).toBe(0);
  });

  it('stays within half a unit in the last place over a wide range', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const x = (rand() - 0.5) * 2 ** (rand() * 28 - 12); // |x| below 2^15: no overflow
      const r = f16Round(x);
      const quantum = 2 ** (Math.max(Math.floor(Math.log2(Math.abs(x))), -14) - 10);
      expect(Math.abs(r - x)).toBeLessThanOrEqual(quantum / 2 + 1e-300);
    }
    expect(Array.from(f16RoundArray([0.1, 70000]))).toEqual([Math.fround(0.0999755859375), Infinity]);
  });
});
