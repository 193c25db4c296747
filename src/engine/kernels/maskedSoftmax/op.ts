import type { OpSpec } from '../opSpec.ts';
import { composedMaskedSoftmax } from './maskedSoftmax.ts';
import { maskedSoftmaxParity } from './parity.ts';
import { MASKED_SOFTMAX, MASKED_SOFTMAX_WEBGPU } from './webgpu.ts';

/** softmax(scores · scale + mask) (maskedSoftmax.ts): fused on WebGPU. */
export const MASKED_SOFTMAX_OP = {
  name: 'maskedSoftmax',
  fused: { maskedSoftmax: MASKED_SOFTMAX },
  gradient: 'registered',
  composition: composedMaskedSoftmax,
  implementations: { webgpu: [MASKED_SOFTMAX_WEBGPU] },
  parity: { maskedSoftmax: maskedSoftmaxParity },
} as const satisfies OpSpec;
