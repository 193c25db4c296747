import type { OpSpec } from '../opSpec.ts';
import { LAYER_NORM_HOST } from './host.ts';
import { LAYER_NORM, composedLayerNorm } from './layerNorm.ts';
import { layerNormParity } from './parity.ts';
import { simdLayerNorm } from './wasm.ts';
import { LAYER_NORM_WEBGPU } from './webgpu.ts';

/** LayerNorm over the last axis (layerNorm.ts): fused on WebGPU and the host backends. */
export const LAYER_NORM_OP = {
  name: 'layerNorm',
  fused: { layerNorm: LAYER_NORM },
  gradient: 'customGrad',
  composition: composedLayerNorm,
  implementations: { webgpu: [LAYER_NORM_WEBGPU], host: [LAYER_NORM_HOST] },
  simd: (backend) => ({ layerNorm: simdLayerNorm(backend) !== null }),
  parity: { layerNorm: layerNormParity },
} as const satisfies OpSpec;
