import type { OpSpec } from '../opSpec.ts';
import { DROPOUT_HOST } from './host.ts';
import { dropoutScales } from './keys.ts';
import { dropoutParity } from './parity.ts';
import { simdDropoutRow } from './wasm.ts';
import { DROPOUT, DROPOUT_WEBGPU } from './webgpu.ts';

/**
 * Keyed dropout (model/dropout.ts applies it): on WebGPU its mask drawn on the device, on the host
 * backends the same mask by the host kernel; the composition is x times keys.ts's scales.
 */
export const DROPOUT_OP = {
  name: 'dropout',
  fused: { dropout: DROPOUT },
  gradient: 'registered',
  composition: dropoutScales,
  implementations: { webgpu: [DROPOUT_WEBGPU], host: [DROPOUT_HOST] },
  simd: (backend) => ({ dropout: simdDropoutRow(backend) !== null }),
  parity: { dropout: dropoutParity },
} as const satisfies OpSpec;
