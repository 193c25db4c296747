import * as tf from '@tensorflow/tfjs';
import { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';

/** Features the engine asks the device for where the adapter has them: tfjs's own, and shader-f16 for half precision. */
export const WANTED_FEATURES: readonly GPUFeatureName[] = ['timestamp-query', 'shader-f16'];

/**
 * tfjs-backend-webgpu's backend factory, as its own (high-performance adapter, the adapter's limits for
 * buffers and workgroups), except that the device is also asked for shader-f16 where the adapter offers
 * it, which tfjs never asks for: the half-precision products need it (engine/precision/). Registered in
 * place of tfjs's before WebGPU first starts.
 */
export function registerWebGpuBackend(): void {
  if (!(globalThis.navigator as Navigator | undefined)?.gpu) return;
  if (tf.findBackendFactory('webgpu')) tf.removeBackend('webgpu');
  tf.registerBackend(
    'webgpu',
    async () => {
      const adapter = await navigator.gpu.requestAdapter({ powerPreference: tf.env().getBool('WEBGPU_USE_LOW_POWER_GPU') ? 'low-power' : 'high-performance' });
      if (!adapter) throw new Error('no WebGPU adapter');
      const l = adapter.limits;
      const device = await adapter.requestDevice({
        requiredFeatures: WANTED_FEATURES.filter((f) => adapter.features.has(f)),
        requiredLimits: {
          maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
          maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
          maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
          maxBufferSize: l.maxBufferSize,
          maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
          maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
        },
      });
      return new WebGPUBackend(device, adapter.info);
    },
    3,
  );
}
