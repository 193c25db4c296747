import * as tf from '@tensorflow/tfjs';
import { activeProfile } from '../backend/profile.ts';
import { adamwKernelParity } from '../kernels/adamw/parity.ts';
import { dropoutStatistics } from '../kernels/dropout/parity.ts';
import { OPS, PARITY_CHECKS } from '../kernels/ops.ts';
import type { OpSpec } from '../kernels/opSpec.ts';
import type { ParityErrors } from '../kernels/parity.ts';
import { type ParityFixture, runParity } from './fixtureParity.ts';
import { replayParity } from './replayParity.ts';
import type { ParityReport } from './parityVerdict.ts';

/**
 * Every numeric check of the active backend in one report (judged by parityVerdict.ts): the fixture
 * parity (energies, loss, gradients, AdamW steps, micro-batches), the fused AdamW kernel, the fused
 * kernels against their compositions, the device-drawn dropout mask, WebGPU's replayed steps against the
 * same steps run through tfjs, and on WASM whether the host kernels' SIMD loops run. The browser parity test and the GPU kit (on a real GPU) both run it.
 */
export async function parityReport(fx: ParityFixture): Promise<ParityReport> {
  const checks = await runParity(fx, { microBatches: [1, 3, 1000] });
  return {
    checks,
    kernels: {
      adamw: await adamwKernelParity(),
      fused: await fusedKernelParity(),
      dropoutMask: await dropoutStatistics(),
      replay: await replayParity(),
      wasmSimd: wasmSimdLoops(),
    },
  };
}

/** On tfjs-wasm, whether the host kernels' WebAssembly SIMD loops run (else their TypeScript loops do); null elsewhere. */
function wasmSimdLoops(): Record<string, boolean> | null {
  if (tf.getBackend() !== 'wasm') return null;
  return Object.assign({}, ...(OPS as readonly OpSpec[]).map((op) => op.simd?.(tf.backend()) ?? {}));
}

/**
 * Every fused WebGPU kernel against its composition (value and gradients, relative errors), by kernel;
 * null for a kernel the active backend does not have (the composition runs there). Each op's spec
 * names its checks (kernels/<op>/op.ts, listed in kernels/ops.ts).
 */
async function fusedKernelParity(): Promise<Record<string, ParityErrors | null>> {
  const profile = activeProfile();
  const errors: Record<string, ParityErrors | null> = {};
  for (const [key, check] of PARITY_CHECKS) errors[key] = await check(profile);
  return errors;
}
