import * as tf from '@tensorflow/tfjs';

/**
 * Whether the products run in half precision: on WebGPU, where the device was given shader-f16
 * (worker/webgpuDevice.ts asks for it where the adapter has it), else float32, with the reason in
 * words. SwiftShader (Chromium's software adapter) has no shader-f16: float32 there.
 */
export interface PrecisionChoice {
  half: boolean;
  reason: string;
}

export function halfPrecisionChoice(backend: string, features: ReadonlySet<string> | undefined): PrecisionChoice {
  if (backend !== 'webgpu') return { half: false, reason: `float32: half precision runs on WebGPU only (this is ${backend})` };
  if (!features?.has('shader-f16')) return { half: false, reason: 'float32: the WebGPU device has no shader-f16' };
  return { half: true, reason: 'f16 products with float32 accumulation and dynamic loss scaling: the device has shader-f16' };
}

/** The features of the WebGPU device tfjs runs on; undefined where WebGPU is not started. */
export function webgpuDeviceFeatures(): ReadonlySet<string> | undefined {
  const backend = tf.findBackend('webgpu') as unknown as { device?: GPUDevice } | null;
  return backend?.device?.features as ReadonlySet<string> | undefined;
}
