import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS } from '../kernels/hostMemory.ts';
import { ADAMW_LINK } from '../kernels/adamw/webgpuFlat.ts';
// Every op's spec (kernels/<op>/op.ts) loads its host kernels, which register as they load: the profile sees them.
import { FUSED_KERNELS, type FusedOp } from '../kernels/ops.ts';

export type { FusedOp };
import { HALF_MAT_MUL } from '../kernels/halfMatMul/op.ts';
import { LOSS_SCALE_UPDATE } from '../kernels/lossScale/op.ts';
import { halfPrecisionChoice, webgpuDeviceFeatures } from '../precision/choice.ts';

/** Activation memory one pass may use when the user leaves the micro-batch on automatic (WASM takes twice this). */
export const DEFAULT_PASS_BUDGET_BYTES = 256 * 1024 ** 2;

/**
 * What runs where on the active tfjs backend, decided once when the backend starts and handed down:
 * the model's ops, the optimizer, the step and the loop read it instead of asking tfjs which backend
 * runs or which kernels it has (one frontend, backends behind one interface, as jax-js does).
 * Every fast path it names sits behind the same op as the plain tfjs composition, which stays the
 * reference and the fallback: a profile with every flag off computes the same numbers, only slower.
 */
export interface BackendProfile {
  /** The tfjs backend this profile describes ('webgpu', 'wasm', 'cpu', …). */
  readonly backend: string;
  /** Forward on the candidates' real tokens packed in one [N, d] matrix (no padded rows): where every padded row costs CPU time. */
  readonly packedForward: boolean;
  /** Q/K/V heads of all candidates from one batched product (a GPU likes one big dispatch) rather than per part. */
  readonly headsFromOneProduct: boolean;
  /** Fused kernels registered for this backend, per op; off means the op runs its tfjs composition. */
  readonly fused: Readonly<Record<FusedOp, boolean>>;
  /** Row gathers through the host gather kernel (CPU-memory backends). */
  readonly hostKernels: boolean;
  /** Products in this project's WebAssembly SIMD loops (WASM, where they beat XNNPACK's; kernels/matMul/host.ts). */
  readonly simdProducts: boolean;
  /** The embedding's AdamW state lives on the host and is updated for the step's rows only. */
  readonly lazyEmbedding: boolean;
  /** One flat in-place AdamW over every parameter (WebGPU), where the parameters fit one binding. */
  readonly flatAdamW: boolean;
  /** Several tensors read back as one concatenation and one map (WebGPU); elsewhere a copy each. */
  readonly readTogether: boolean;
  /** Per-step scalars are read back every this many steps (1 where a read is a copy in CPU memory). */
  readonly readbackEvery: number;
  /** WebGPU's buffer pool is trimmed between steps, at pauses and after validations. */
  readonly trimGpuPool: boolean;
  /**
   * Training steps are shared with a peer thread on another core, half the candidates each (sharedStep.ts):
   * on WASM, whose step runs on one core, where the engine has a peer. It needs the packed forward, whose
   * dropout masks are keyed by candidate, so that any split of a step draws the same masks.
   */
  readonly sharedSteps: boolean;
  /**
   * Training steps and scoring batches are recorded once per shape and replayed (WebGPU, with the fused
   * kernels that keep per-step values out of the GPU work: kernels/webgpu/replay/stepReplay.ts), so a
   * step costs the engine thread its inputs and one encoding instead of tfjs's work per kernel.
   */
  readonly replaySteps: boolean;
  /**
   * Activation bytes one training pass may take when the micro-batch is automatic: a step (or a shared
   * step's half) over it runs micro-batched, in two passes. WASM's tensors live in its heap (up to 4 GiB,
   * one per thread): twice the GPU's, so a half of 8 candidates at 512 tokens of the small preset runs in one pass.
   */
  readonly passBudgetBytes: number;
  /**
   * The products in half precision (f16 operands, float32 accumulation: kernels/halfMatMul/) with dynamic
   * loss scaling (precision/lossScaler.ts); weights, gradients and AdamW's state stay float32. WebGPU
   * where the device has shader-f16 (precision/choice.ts) and the kernels are registered.
   */
  readonly halfPrecision: boolean;
}

/** On WebGPU the per-step scalars are read back together, at most one read (it ends a GPU pass and maps a buffer) per this many steps. */
export const READBACK_EVERY = 10;

/**
 * The profile of `backend` from the kernels registered for it now (the worker registers WebGPU's when
 * WebGPU starts; the host AdamW kernel is registered when its module loads) and what each backend is
 * good at: CPU-memory backends (cpu, wasm) pay for every padded row and every touched embedding row,
 * so they run the packed forward (wasm, whose products go to XNNPACK) and the lazy embedding; a GPU
 * likes few big dispatches and dislikes read-backs, each of which ends a pass.
 */
export function detectProfile(backend: string = tf.getBackend()): BackendProfile {
  const has = (kernel: string) => tf.getKernel(kernel, backend) !== undefined;
  const fused = {} as Record<FusedOp, boolean>;
  for (const [op, kernel] of FUSED_KERNELS) fused[op] = has(kernel);
  const host = (HOST_BACKENDS as readonly string[]).includes(backend);
  const webgpu = backend === 'webgpu';
  return {
    backend,
    packedForward: backend === 'wasm',
    headsFromOneProduct: webgpu,
    fused,
    hostKernels: host,
    simdProducts: backend === 'wasm',
    lazyEmbedding: host,
    flatAdamW: has(ADAMW_LINK),
    readTogether: webgpu,
    readbackEvery: webgpu ? READBACK_EVERY : 1,
    trimGpuPool: webgpu,
    sharedSteps: backend === 'wasm',
    replaySteps: webgpu && fused.dropout && fused.btLoss && has(ADAMW_LINK),
    passBudgetBytes: backend === 'wasm' ? 2 * DEFAULT_PASS_BUDGET_BYTES : DEFAULT_PASS_BUDGET_BYTES,
    halfPrecision: webgpu && has(HALF_MAT_MUL) && has(LOSS_SCALE_UPDATE) && halfPrecisionChoice(backend, webgpuDeviceFeatures()).half,
  };
}

let chosen: BackendProfile | null = null;

/** The profile of the backend just started (the worker sets it once its kernels are registered); null forgets it. */
export function useProfile(p: BackendProfile | null): void {
  chosen = p;
}

/**
 * The profile of the active backend: the one set by useProfile when it describes that backend, else
 * detected now. Not cached: detection is a dozen registry look-ups, and a kernel registered after a
 * first call (as Node tests do, switching backends) must be seen by the next.
 */
export function activeProfile(): BackendProfile {
  const backend = tf.getBackend();
  return chosen !== null && chosen.backend === backend ? chosen : detectProfile(backend);
}
