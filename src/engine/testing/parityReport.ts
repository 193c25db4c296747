import { dropoutStatistics } from '../kernels/webgpu/dropout.parity.ts';
import { adamwKernelParity, fusedKernelParity } from './kernelParity.ts';
import { type ParityFixture, runParity } from './parity.ts';
import type { ParityReport } from './parityVerdict.ts';

/**
 * Every numeric check of the active backend in one report (judged by parityVerdict.ts): the fixture
 * parity (energies, loss, gradients, AdamW steps, micro-batches), the fused AdamW kernel, the fused
 * WebGPU kernels against their compositions and the device-drawn dropout mask. The browser parity test
 * and the GPU kit (on a real GPU) both run it.
 */
export async function parityReport(fx: ParityFixture): Promise<ParityReport> {
  const checks = await runParity(fx, { microBatches: [1, 3, 1000] });
  return { checks, kernels: { adamw: await adamwKernelParity(), fused: await fusedKernelParity(), dropoutMask: await dropoutStatistics() } };
}
