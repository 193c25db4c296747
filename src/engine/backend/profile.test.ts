import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { ADAMW_LINK } from '../kernels/adamw/webgpuFlat.ts';
import { BT_LOSS } from '../kernels/btLoss/webgpu.ts';
import { DROPOUT } from '../kernels/dropout/webgpu.ts';
import { MASKED_SOFTMAX } from '../kernels/maskedSoftmax/webgpu.ts';
import { type BackendProfile, DEFAULT_PASS_BUDGET_BYTES, READBACK_EVERY, activeProfile, detectProfile, useProfile } from './profile.ts';

const on = (p: BackendProfile) =>
  Object.entries(p.fused)
    .filter(([, v]) => v)
    .map(([op]) => op);

describe('the backend profile', () => {
  afterEach(() => useProfile(null));

  it('on cpu and wasm: lazy embedding, host kernels, the host AdamW, GELU, LayerNorm and linear kernels, a read-back every step; the packed forward on wasm only', () => {
    for (const backend of ['cpu', 'wasm']) {
      const p = detectProfile(backend);
      expect(p).toMatchObject({
        backend,
        hostKernels: true,
        lazyEmbedding: true,
        flatAdamW: false,
        readTogether: false,
        readbackEvery: 1,
        trimGpuPool: false,
        headsFromOneProduct: false,
      });
      expect(p.packedForward).toBe(backend === 'wasm');
      expect(p.sharedSteps).toBe(backend === 'wasm');
      expect(p.replaySteps).toBe(false);
      expect(on(p)).toEqual(['gelu', 'layerNorm', 'linear', 'adamw']);
      // Tensors in CPU memory (WASM: a heap of up to 4 GiB per thread) may take twice a GPU's pass.
      expect(p.passBudgetBytes).toBe(backend === 'wasm' ? 2 * DEFAULT_PASS_BUDGET_BYTES : DEFAULT_PASS_BUDGET_BYTES);
    }
  });

  it('on webgpu: read-backs together every READBACK_EVERY steps, pool trimming, heads from one product, no host path; the flat AdamW where its kernel is registered, replay where the kernels that keep per-step values on the device are', () => {
    const p = detectProfile('webgpu');
    expect(p).toMatchObject({
      backend: 'webgpu',
      passBudgetBytes: DEFAULT_PASS_BUDGET_BYTES,
      packedForward: false,
      hostKernels: false,
      lazyEmbedding: false,
      readTogether: true,
      readbackEvery: READBACK_EVERY,
      trimGpuPool: true,
      headsFromOneProduct: true,
      sharedSteps: false,
    });
    // The worker registers WebGPU's kernels when WebGPU starts: here stand-ins, unless they are there.
    const stand = [ADAMW_LINK, DROPOUT, BT_LOSS].filter((k) => !tf.getKernel(k, 'webgpu'));
    const add = (k: string) => tf.registerKernel({ kernelName: k, backendName: 'webgpu', kernelFunc: () => [] });
    try {
      for (const k of stand) add(k);
      expect(detectProfile('webgpu')).toMatchObject({ flatAdamW: true, replaySteps: true });
    } finally {
      for (const k of stand) tf.unregisterKernel(k, 'webgpu');
    }
    // In Node none of them is registered: without the dropout and loss kernels nothing is replayed.
    if (stand.length === 3) {
      add(ADAMW_LINK);
      try {
        expect(detectProfile('webgpu')).toMatchObject({ flatAdamW: true, replaySteps: false });
      } finally {
        tf.unregisterKernel(ADAMW_LINK, 'webgpu');
      }
    }
  });

  it('activeProfile describes the active backend, sees a kernel registered after a first call, and takes the profile set for that backend only', async () => {
    await tf.setBackend('cpu');
    expect(activeProfile().fused.maskedSoftmax).toBe(false);
    tf.registerKernel({ kernelName: MASKED_SOFTMAX, backendName: 'cpu', kernelFunc: () => ({ dataId: {}, shape: [], dtype: 'float32' }) });
    try {
      expect(activeProfile().fused.maskedSoftmax).toBe(true);
    } finally {
      tf.unregisterKernel(MASKED_SOFTMAX, 'cpu');
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
