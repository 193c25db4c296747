import type { OpSpec } from '../opSpec.ts';
import { GELU, composedGelu } from './gelu.ts';
import { GELU_HOST } from './host.ts';
import { geluParity } from './parity.ts';
import { simdGelu } from './wasm.ts';
import { GELU_WEBGPU } from './webgpu.ts';

/** Exact (erf) GELU (gelu.ts): fused on WebGPU and the host backends. */
export const GELU_OP = {
  name: 'gelu',
  fused: { gelu: GELU },
  gradient: 'registered',
  composition: composedGelu,
  implementations: { webgpu: [GELU_WEBGPU], host: [GELU_HOST] },
  simd: (backend) => ({ gelu: simdGelu(backend) !== null }),
  parity: { gelu: geluParity },
} as const satisfies OpSpec;
