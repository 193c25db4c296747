import type { OpSpec } from '../opSpec.ts';
import { ADAMW_KERNEL, composedAdamW } from './adamw.ts';
import { adamwFlatParity } from './flatParity.ts';
import { ADAMW_HOST } from './host.ts';
import { ADAMW_WEBGPU } from './webgpu.ts';
import { ADAMW_FLAT_WEBGPU } from './webgpuFlat.ts';

/**
 * One AdamW update per parameter (adamw.ts), fused on every backend, and on WebGPU the flat in-place
 * update over every parameter (webgpuFlat.ts; the profile's flatAdamW). The per-parameter kernel's own
 * check is the parity report's `adamw` (parity.ts).
 */
export const ADAMW_OP = {
  name: 'adamw',
  fused: { adamw: ADAMW_KERNEL },
  gradient: 'none',
  composition: composedAdamW,
  implementations: { webgpu: [ADAMW_WEBGPU, ADAMW_FLAT_WEBGPU], host: [ADAMW_HOST] },
  parity: { adamwFlat: adamwFlatParity },
} as const satisfies OpSpec;
