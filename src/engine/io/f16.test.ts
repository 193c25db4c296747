import { describe, expect, it } from 'vitest';
import { decodeF16, encodeF16, f16BitsToNumber, numberToF16Bits } from './f16.ts';

/** Independent definition of binary16 (arithmetic, not bits): the oracle for the exhaustive checks. */
function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN;
  if (exp === 0) return sign * mant * 2 ** -24;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

describe('f16 decode', () => {
  it('known values, incl. ±0, subnormals, max, ±inf, NaN', () => {
    const cases: Array<[number, number]> = [
      [0x0000, 0],
      [0x3c00, 1],
      [0xc000, -2],
      [0x3555, 0.333251953125],
      [0x7bff, 65504],
      [0x0400, 2 ** -14],
      [0x0001, 2 ** -24],
      [0x03ff, 1023 * 2 ** -24],
      [0x8001, -(2 ** -24)],
      [0x7c00, Infinity],
      [0xfc00, -Infinity],
    ];
    for (const [h, v] of cases) expect(f16BitsToNumber(h)).toBe(v);
    expect(Object.is(f16BitsToNumber(0x8000), -0)).toBe(true);
    expect(f16BitsToNumber(0x7e00)).toBeNaN();
    expect(f16BitsToNumber(0xfc01)).toBeNaN();
  });

  it('agrees with the arithmetic definition for all 65536 bit patterns', () => {
    const bytes = new Uint8Array(2 * 65536);
    for (let h = 0; h < 65536; h++) {
      bytes[2 * h] = h & 0xff;
      bytes[2 * h + 1] = h >>> 8;
    }
    const out = decodeF16(bytes);
    for (let h = 0; h < 65536; h++) {
      const want = halfValue(h);
      if (Number.isNaN(want)) expect(out[h]).toBeNaN();
      else if (!Object.is(out[h], want)) throw new Error(`0x${h.toString(16)}: got ${out[h]}, want ${want}`);
    }
  });

  it('reads little-endian halves at an odd byte offset', () => {
    const buf = new Uint8Array([0xaa, 0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00]);
    expect([...decodeF16(buf.subarray(1, 7))]).toEqual([1, -2, 2 ** -24]);
    expect(() => decodeF16(buf.subarray(0, 3))).toThrow(/even byte length/);
  });
});

describe('f16 encode', () => {
  it('round-trips every bit pattern exactly, NaN payloads and -0 included', () => {
    const bytes = new Uint8Array(2 * 65536);
    for (let h = 0; h < 65536; h++) {
      bytes[2 * h] = h & 0xff;
      bytes[2 * h + 1] = h >>> 8;
    }
    const back = encodeF16(decodeF16(bytes));
    for (let i = 0; i < bytes.length; i++) {
      if (back[i] !== bytes[i]) throw new Error(`half 0x${(i >> 1).toString(16)} came back different`);
    }
  });

  it('rounds to nearest, ties to even, at every boundary', () => {
    const h = (x: number) => numberToF16Bits(x);
    expect(h(1 + 2 ** -11)).toBe(0x3c00); // tie between 1 and 1+2^-10 → even (1)
    expect(h(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie between 0x3c01 and 0x3c02 → even
    expect(h(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01); // just above the tie
    expect(h(65504)).toBe(0x7bff);
    expect(h(65519.99)).toBe(0x7bff);
    expect(h(65520)).toBe(0x7c00); // tie between 65504 and 2^16 → even → inf
    expect(h(1e6)).toBe(0x7c00);
    expect(h(-1e6)).toBe(0xfc00);
    expect(h(2 ** -25)).toBe(0x0000); // tie between 0 and the smallest subnormal → 0
    expect(h(2 ** -25 * 1.0001)).toBe(0x0001);
    expect(h(3 * 2 ** -26)).toBe(0x0001);
    expect(h(-(2 ** -30))).toBe(0x8000);
    expect(h(1023.5 * 2 ** -24)).toBe(0x0400); // largest subnormal + half an ulp → carries into 2^-14
    expect(h(2.5 * 2 ** -24)).toBe(0x0002); // subnormal tie → even
    expect(h(Infinity)).toBe(0x7c00);
    expect(f16BitsToNumber(h(NaN))).toBeNaN();
    expect(h(1e-45)).toBe(0x0000); // float32 subnormal input
  });

  it('is the nearest half for random float32 values (checked against the decoded neighbours)', () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const xs = new Float32Array(20000);
    for (let i = 0; i < xs.length; i++) xs[i] = (rand() - 0.5) * 2 ** (rand() * 44 - 28);
    const enc = encodeF16(xs);
    for (let i = 0; i < xs.length; i++) {
      const bits = enc[2 * i] | (enc[2 * i + 1] << 8);
      const err = Math.abs(halfValue(bits) - xs[i]);
      // Neither neighbouring half may be strictly closer.
      for (const nb of [bits - 1, bits + 1]) {
        if ((nb & 0x7fff) >= 0x7c00 || (nb & 0x8000) !== (bits & 0x8000)) continue;
        expect(Math.abs(halfValue(nb) - xs[i])).toBeGreaterThanOrEqual(err);
      }
    }
  });

  it('encodes a subarray view (byteOffset ≠ 0) as little-endian bytes', () => {
    const a = new Float32Array([7, 1, -2, 0.5]);
    expect([...encodeF16(a.subarray(1, 3))]).toEqual([0x00, 0x3c, 0x00, 0xc0]);
  });
});
