import type { OpSpec } from '../opSpec.ts';
import { composedGlobalNorm } from './globalNorm.ts';
import { globalNormParity } from './parity.ts';
import { BOTH_FINITE, CLIP_COEFFICIENT, GLOBAL_NORM_WEBGPU, SQUARED_NORM_LINK } from './webgpu.ts';

/** The gradient clipping's global norm, clip coefficient and finite flag (globalNorm.ts): fused on WebGPU. */
export const GLOBAL_NORM_OP = {
  name: 'globalNorm',
  fused: { globalNorm: SQUARED_NORM_LINK, clipCoefficient: CLIP_COEFFICIENT, bothFinite: BOTH_FINITE },
  gradient: 'none',
  composition: composedGlobalNorm,
  implementations: { webgpu: [GLOBAL_NORM_WEBGPU] },
  parity: { globalNorm: globalNormParity },
} as const satisfies OpSpec;
