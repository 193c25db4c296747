import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import type { BackendInfo } from './backendInfo.ts';

export type { AdapterSummary, BackendInfo } from './backendInfo.ts';

/** WebGPU when the browser offers an adapter, else the CPU backend with the reason said plainly. */
export async function initBackend(prefer: 'webgpu' | 'cpu' = 'webgpu'): Promise<BackendInfo> {
  if (prefer === 'cpu') return useCpu('the CPU backend was requested');
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) return useCpu('this browser exposes no WebGPU (navigator.gpu is missing; use a recent Chrome, or enable WebGPU)');
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter();
  } catch (e) {
    return useCpu(`WebGPU adapter request failed: ${String(e)}`);
  }
  if (!adapter) return useCpu('WebGPU is present but no GPU adapter is available');
  try {
    const ok = await tf.setBackend('webgpu');
    if (!ok) return useCpu('the WebGPU backend failed to initialise');
    await tf.ready();
  } catch (e) {
    return useCpu(`the WebGPU backend failed to initialise: ${String(e)}`);
  }
  const info = adapter.info;
  return {
    backend: 'webgpu',
    adapter: {
      vendor: info?.vendor ?? '',
      architecture: info?.architecture ?? '',
      description: info?.description ?? '',
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    },
    fallbackReason: null,
  };
}

async function useCpu(reason: string): Promise<BackendInfo> {
  await tf.setBackend('cpu');
  await tf.ready();
  return { backend: 'cpu', adapter: null, fallbackReason: reason };
}
