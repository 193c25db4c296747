import { OPS } from './ops.ts';
import type { OpSpec } from './opSpec.ts';
import { registerKernels } from './register.ts';
import { registerHalfPrecision } from '../precision/registerHalf.ts';

/**
 * Every fused WebGPU kernel of this project (each op's spec names its families: kernels/ops.ts), registered
 * for the 'webgpu' backend. The worker calls this once WebGPU runs and before it detects the backend's
 * profile (engine/backend/profile.ts), which turns each fused op on where its kernel is registered.
 */
export function registerWebGpuKernels(): void {
  for (const op of OPS as readonly OpSpec[]) for (const family of op.implementations.webgpu ?? []) registerKernels(['webgpu'], family);
  // The f16 products and the loss scale's update, where the device has shader-f16.
  registerHalfPrecision();
}
