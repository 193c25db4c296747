import { halfMatMulFamily } from '../kernels/halfMatMul/webgpu.ts';
import { LOSS_SCALE_WEBGPU } from '../kernels/lossScale/webgpu.ts';
import { registerKernels } from '../kernels/register.ts';
import { type PrecisionChoice, halfPrecisionChoice, webgpuDeviceFeatures } from './choice.ts';

/**
 * The half-precision kernels (f16 products, the loss scale's in-place update), registered for WebGPU
 * where the device has shader-f16; the backend profile turns half precision on where they are.
 */
export function registerHalfPrecision(): PrecisionChoice {
  const choice = halfPrecisionChoice('webgpu', webgpuDeviceFeatures());
  if (choice.half) for (const family of [halfMatMulFamily(true), LOSS_SCALE_WEBGPU]) registerKernels(['webgpu'], family);
  return choice;
}
