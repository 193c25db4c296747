import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { ADAMW_LINK } from '../kernels/webgpu/adamwFlat.ts';
import { GELU } from '../kernels/webgpu/gelu.ts';
import { type BackendProfile, READBACK_EVERY, activeProfile, detectProfile, useProfile } from './profile.ts';

const on = (p: BackendProfile) => Object.entries(p.fused).filter(([, v]) => v).map(([op]) => op);

describe('the backend profile', () => {
  afterEach(() => useProfile(null));

  it('on cpu and wasm: lazy embedding, host kernels, the host AdamW kernel, a read-back every step; the packed forward on wasm only', () => {
    for (const backend of ['cpu', 'wasm']) {
      const p = detectProfile(backend);
      expect(p).toMatchObject({ backend, hostKernels: true, lazyEmbedding: true, flatAdamW: false, readTogether: false, readbackEvery: 1, trimGpuPool: false, headsFromOneProduct: false });
      expect(p.packedForward).toBe(backend === 'wasm');
      expect(p.sharedSteps).toBe(backend === 'wasm');
      expect(on(p)).toEqual(['adamw']);
    }
  });

  it('on webgpu: read-backs together every READBACK_EVERY steps, pool trimming, heads from one product, no host path; the flat AdamW where its kernel is registered', () => {
    const p = detectProfile('webgpu');
    expect(p).toMatchObject({ backend: 'webgpu', packedForward: false, hostKernels: false, lazyEmbedding: false, readTogether: true, readbackEvery: READBACK_EVERY, trimGpuPool: true, headsFromOneProduct: true, sharedSteps: false });
    // The worker registers WebGPU's kernels when WebGPU starts: here a stand-in, unless one is there.
    const mine = !tf.getKernel(ADAMW_LINK, 'webgpu');
    if (mine) tf.registerKernel({ kernelName: ADAMW_LINK, backendName: 'webgpu', kernelFunc: () => [] });
    try {
      expect(detectProfile('webgpu').flatAdamW).toBe(true);
    } finally {
      if (mine) tf.unregisterKernel(ADAMW_LINK, 'webgpu');
    }
  });

  it('activeProfile describes the active backend, sees a kernel registered after a first call, and takes the profile set for that backend only', async () => {
    await tf.setBackend('cpu');
    expect(activeProfile().fused.gelu).toBe(false);
    tf.registerKernel({ kernelName: GELU, backendName: 'cpu', kernelFunc: () => ({ dataId: {}, shape: [], dtype: 'float32' }) });
    try {
      expect(activeProfile().fused.gelu).toBe(true);
    } finally {
      tf.unregisterKernel(GELU, 'cpu');
    }
    const set: BackendProfile = { ...detectProfile('cpu'), readbackEvery: 7 };
    useProfile(set);
    expect(activeProfile()).toBe(set);
    await tf.setBackend('wasm');
    // A profile of another backend (a test switching backends) is not taken: the active one is detected.
    expect(activeProfile()).toEqual(detectProfile('wasm'));
    await tf.setBackend('cpu');
    useProfile(null);
    expect(activeProfile()).toEqual(detectProfile('cpu'));
  });
});
