import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';

export interface AdapterSummary {
  vendor: string;
  architecture: string;
  description: string;
  /** Limits that decide whether a model fits (bytes). */
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
}

export interface BackendInfo {
  backend: 'webgpu' | 'cpu';
  adapter: AdapterSummary | null;
  /** Why WebGPU is not in use, in words for the user; null when it is. */
  fallbackReason: string | null;
}

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

/** "google swiftshader" style label for the UI. */
export function adapterLabel(a: AdapterSummary | null): string {
  if (!a) return 'none';
  return [a.vendor, a.architecture, a.description].filter(Boolean).join(' ') || 'unknown adapter';
}
