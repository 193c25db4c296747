import * as tf from '@tensorflow/tfjs';
import { activeProfile } from '../backend/profile.ts';
import { simdDropoutRow } from '../kernels/dropout/wasm.ts';
import { simdGelu } from '../kernels/gelu/wasm.ts';
import { simdGemm } from '../kernels/matMul/wasm.ts';
import { simdLayerNorm } from '../kernels/layerNorm/wasm.ts';
import { adamwKernelParity } from '../kernels/adamw/parity.ts';
import { adamwFlatParity } from '../kernels/adamw/flatParity.ts';
import { btLossParity } from '../kernels/btLoss/parity.ts';
import type { ParityErrors } from '../kernels/parity.ts';
import { dropoutParity, dropoutStatistics } from '../kernels/dropout/parity.ts';
import { geluParity } from '../kernels/gelu/parity.ts';
import { globalNormParity } from '../kernels/globalNorm/parity.ts';
import { qkvHeadsParity } from '../kernels/qkvHeads/parity.ts';
import { layerNormParity } from '../kernels/layerNorm/parity.ts';
import { linearParity } from '../kernels/matMul/parity.ts';
import { rowSumParity } from '../kernels/rowSum/parity.ts';
import { maskedSoftmaxParity } from '../kernels/maskedSoftmax/parity.ts';
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
 * kernels/<op>/parity.ts.
 */
async function fusedKernelParity(): Promise<Record<string, ParityErrors | null>> {
  return { layerNorm: await layerNormParity(), gelu: await geluParity(), globalNorm: await globalNormParity(), btLoss: await btLossParity(), maskedSoftmax: await maskedSoftmaxParity(), linear: await linearParity(activeProfile().simdProducts), qkvHeads: await qkvHeadsParity(), dropout: await dropoutParity(), adamwFlat: await adamwFlatParity(), rowSum: await rowSumParity() };
}
