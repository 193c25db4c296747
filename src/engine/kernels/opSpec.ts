import type { ParityErrors } from './parity.ts';
import type { KernelFamily } from './register.ts';

/** What a parity check is handed of the backend's profile (the profile lies above kernels/, in backend/). */
export interface ParityOn {
  readonly simdProducts: boolean;
}

/**
 * One op, declared once in its folder (kernels/<op>/op.ts) and listed in kernels/ops.ts, which every
 * reader of the ops takes: the backend profile (its `fused` flags), the WebGPU registration, the parity
 * report and its verdict, and the tests. The op's call (its fused path and its composition) sits beside,
 * in kernels/<op>/<op>.ts, which the model imports.
 */
export interface OpSpec {
  /** The op's folder under kernels/. */
  readonly name: string;
  /**
   * The backend profile's fused flags this op owns, each with the kernel whose registration for a backend
   * turns it on (BackendProfile.fused; the model's ops read the flag). Empty for an op the profile does not switch.
   */
  readonly fused: Readonly<Record<string, string>>;
  /**
   * How the fused path is differentiated: by a gradient its kernel families register ('registered'), by
   * tf.customGrad in its call ('customGrad'), or not at all ('none': the optimizer, the clipping's norms).
   */
  readonly gradient: 'registered' | 'customGrad' | 'none';
  /** The plain tfjs composition: the reference the kernels are tested against and the path where none is registered. */
  readonly composition?: (...args: never[]) => unknown;
  /**
   * The op's kernels per backend. WebGPU's are registered when WebGPU starts (kernels/registerWebGpu.ts);
   * the host's (cpu, wasm) need no device and register when their modules load (this spec loads them).
   */
  readonly implementations: { readonly webgpu?: readonly KernelFamily[]; readonly host?: readonly KernelFamily[] };
  /** On tfjs-wasm, whether each of the op's WebAssembly SIMD loops runs, by name in the parity report. */
  readonly simd?: (backend: unknown) => Record<string, boolean>;
  /** The fused kernels against the composition, by key in the parity report; a check reports null where the backend lacks the kernel. */
  readonly parity?: Readonly<Record<string, (on: ParityOn) => Promise<ParityErrors | null>>>;
}
