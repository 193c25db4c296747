import * as tf from '@tensorflow/tfjs';
import { simdDropoutRow } from '../kernels/wasm/dropoutRow.ts';
import { simdGelu } from '../kernels/wasm/gelu.ts';
import { simdGemm } from '../kernels/wasm/gemm.ts';
import { simdLayerNorm } from '../kernels/wasm/layerNorm.ts';
import { adamwKernelParity } from './kernelChecks/adamw.ts';
import { adamwFlatParity } from './kernelChecks/adamwFlat.ts';
import { btLossParity } from './kernelChecks/btLoss.ts';
import type { ParityErrors } from './kernelChecks/compare.ts';
import { dropoutParity, dropoutStatistics } from './kernelChecks/dropout.ts';
import { geluParity } from './kernelChecks/gelu.ts';
import { globalNormParity } from './kernelChecks/globalNorm.ts';
import { qkvHeadsParity } from './kernelChecks/heads.ts';
import { layerNormParity } from './kernelChecks/layerNorm.ts';
import { linearParity } from './kernelChecks/linear.ts';
import { rowSumParity } from './kernelChecks/rowSum.ts';
import { maskedSoftmaxParity } from './kernelChecks/softmax.ts';
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
  return { checks, kernels: { adamw: await adamwKernelParity(), fused: await fusedKernelParity(), dropoutMask: await dropoutStatistics(), replay: await replayParity(), wasmSimd: wasmSimdLoops() } };
}

/** On tfjs-wasm, whether the host kernels' WebAssembly SIMD loops run (else their TypeScript loops do); null elsewhere. */
function wasmSimdLoops(): Record<string, boolean> | null {
  if (tf.getBackend() !== 'wasm') return null;
  const gemm = simdGemm(tf.backend());
  return { dropout: simdDropoutRow(tf.backend()) !== null, gelu: simdGelu(tf.backend()) !== null, layerNorm: simdLayerNorm(tf.backend()) !== null, gemm: gemm !== null, 'gemm fused multiply-add': gemm?.fused === true };
}

/**
 * Every fused WebGPU kernel against its composition (value and gradients, relative errors), by kernel;
 * null for a kernel the active backend does not have (the composition runs there). Each check is
 * testing/kernelChecks/<the kernel's file name>.ts.
 */
async function fusedKernelParity(): Promise<Record<string, ParityErrors | null>> {
  return { layerNorm: await layerNormParity(), gelu: await geluParity(), globalNorm: await globalNormParity(), btLoss: await btLossParity(), maskedSoftmax: await maskedSoftmaxParity(), linear: await linearParity(), qkvHeads: await qkvHeadsParity(), dropout: await dropoutParity(), adamwFlat: await adamwFlatParity(), rowSum: await rowSumParity() };
}
