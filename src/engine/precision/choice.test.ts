import { describe, expect, it } from 'vitest';
import { halfPrecisionChoice } from './choice.ts';

// What headless Chromium 156's SwiftShader adapter offers (read from navigator.gpu on this machine): subgroups, no shader-f16.
const SWIFTSHADER = new Set([
  'bgra8unorm-storage',
  'clip-distances',
  'core-features-and-limits',
  'depth-clip-control',
  'depth32float-stencil8',
  'float32-blendable',
  'float32-filterable',
  'indirect-first-instance',
  'rg11b10ufloat-renderable',
  'subgroup-size-control',
  'subgroups',
  'texture-compression-bc',
  'timestamp-query',
]);

describe('the precision choice', () => {
  it('is float32 on SwiftShader, which has no shader-f16', () => {
    const c = halfPrecisionChoice('webgpu', SWIFTSHADER);
    expect(c.half).toBe(false);
    expect(c.reason).toContain('shader-f16');
  });

  it('is f16 where the WebGPU device has shader-f16', () => {
    expect(halfPrecisionChoice('webgpu', new Set([...SWIFTSHADER, 'shader-f16'])).half).toBe(true);
  });

  it('is float32 on the other backends and before WebGPU starts', () => {
    for (const backend of ['wasm', 'cpu']) expect(halfPrecisionChoice(backend, new Set(['shader-f16'])).half).toBe(false);
    expect(halfPrecisionChoice('webgpu', undefined).half).toBe(false);
  });
});
