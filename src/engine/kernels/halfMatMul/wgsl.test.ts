import { expect, it } from 'vitest';
import { halfMatMulCode, variantKey } from './wgsl.ts';

it('the f16 variant enables f16 and keeps float32 storage and accumulation; the f32 variant names no f16 at all', () => {
  const half = halfMatMulCode({ transposeA: false, transposeB: true, bias: true, half: true });
  expect(half.enables).toBe('enable f16;');
  expect(half.code).toContain('var<workgroup> As : array<f16, 1024>');
  expect(half.code).toContain('var acc : array<array<f32, 4>, 4>');
  expect(half.code).toContain('acc[i][j] + f32(dot(a[i], bv[j]))');
  expect(half.code).toContain('+ BIAS[n]');
  // WGSL refuses a constant NaN: the poisoned tile's NaN comes from a var.
  expect(half.code).not.toMatch(/bitcast<f32>\(0x/);
  const plain = halfMatMulCode({ transposeA: true, transposeB: false, bias: false, half: false });
  expect(plain.enables).toBe('');
  expect(plain.code).not.toMatch(/f16/);
  expect(plain.code).not.toContain('BIAS');
  // Every variant its own pipeline.
  const keys = new Set(
    [false, true].flatMap((h) =>
      [false, true].flatMap((a) => [false, true].flatMap((b) => [false, true].map((bias) => variantKey({ transposeA: a, transposeB: b, bias, half: h })))),
    ),
  );
  expect(keys.size).toBe(16);
});
