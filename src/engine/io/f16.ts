/**
 * IEEE 754 binary16 ⇄ binary32, bit-exact, no DOM or tfjs. Safetensors F16 tensors become Float32Array
 * on load (the model computes in float32); writing F16 halves the file for tensors whose values are
 * float16-exact (the fixture's emb.weight is, by construction). Node 20 has no Float16Array, so this is
 * done on bit patterns.
 */

const scratchF32 = new Float32Array(1);
const scratchU32 = new Uint32Array(scratchF32.buffer);

/** float32 bit pattern of the half with bits `h`; exact, since every half is a float32. */
function halfToFloatBits(h: number): number {
  const sign = (h & 0x8000) << 16;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0x1f) return (sign | 0x7f800000 | (mant << 13)) >>> 0; // ±inf, NaN (payload kept)
  if (exp !== 0) return (sign | ((exp + 112) << 23) | (mant << 13)) >>> 0; // normal: rebias 15 → 127
  if (mant === 0) return sign >>> 0; // ±0
  // Subnormal mant·2^-24: shift until the leading 1 reaches the implicit-bit position.
  let e = 113;
  let m = mant;
  while ((m & 0x400) === 0) {
    m <<= 1;
    e--;
  }
  return (sign | (e << 23) | ((m & 0x3ff) << 13)) >>> 0;
}

/** Half bits nearest to the float32 with bits `u` (round to nearest, ties to even; NaN payload kept). */
function floatBitsToHalf(u: number): number {
  const sign = (u >>> 16) & 0x8000;
  const exp = (u >>> 23) & 0xff;
  const mant = u & 0x7fffff;
  if (exp === 0xff) {
    if (mant === 0) return sign | 0x7c00;
    // Keep the top payload bits; if they are all zero, set the quiet bit so the result stays a NaN.
    const p = mant >>> 13;
    return sign | 0x7c00 | (p === 0 ? 0x200 : p);
  }
  if (exp >= 143) return sign | 0x7c00; // |x| ≥ 2^16: beyond the largest half even after rounding
  if (exp <= 101) return sign; // |x| < 2^-25: rounds to ±0 (2^-25 itself is a tie, goes to even 0)
  let h: number;
  let rem: number;
  let halfway: number;
  if (exp < 113) {
    // Half subnormal (|x| < 2^-14): the result counts units of 2^-24.
    const m = mant | 0x800000;
    const shift = 126 - exp; // 14..24
    h = m >>> shift;
    rem = m & ((1 << shift) - 1);
    halfway = 1 << (shift - 1);
  } else {
    h = ((exp - 112) << 10) | (mant >>> 13);
    rem = mant & 0x1fff;
    halfway = 0x1000;
  }
  // A carry out of the mantissa correctly bumps the exponent (largest subnormal → 2^-14, 65520 → inf).
  if (rem > halfway || (rem === halfway && (h & 1) === 1)) h++;
  return sign | h;
}

/** The number a half with bits `h` (0..0xffff) stands for. */
export function f16BitsToNumber(h: number): number {
  scratchU32[0] = halfToFloatBits(h & 0xffff);
  return scratchF32[0];
}

/** Half bits nearest to `x`; `x` is first rounded to float32 (exact for values from a Float32Array). */
export function numberToF16Bits(x: number): number {
  scratchF32[0] = x;
  return floatBitsToHalf(scratchU32[0]);
}

/** Decodes `bytes.length / 2` little-endian halves (any byte alignment) into a new Float32Array. */
export function decodeF16(bytes: Uint8Array): Float32Array<ArrayBuffer> {
  if (bytes.length % 2 !== 0) throw new RangeError(`F16 data must have an even byte length (got ${bytes.length})`);
  const n = bytes.length / 2;
  const out = new Float32Array(n);
  const bits = new Uint32Array(out.buffer); // writing bits keeps NaN payloads and -0 exactly
  for (let i = 0; i < n; i++) bits[i] = halfToFloatBits(bytes[2 * i] | (bytes[2 * i + 1] << 8));
  return out;
}

/** Encodes float32 values as little-endian halves (round to nearest even; out of range → ±inf). */
export function encodeF16(data: Float32Array): Uint8Array<ArrayBuffer> {
  // Read bit patterns straight from the array's memory so NaN payloads survive (a JS number may not keep them).
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  const out = new Uint8Array(2 * data.length);
  for (let i = 0; i < data.length; i++) {
    const h = floatBitsToHalf(bits[i]);
    out[2 * i] = h & 0xff;
    out[2 * i + 1] = h >>> 8;
  }
  return out;
}
