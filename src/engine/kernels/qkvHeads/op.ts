import type { OpSpec } from '../opSpec.ts';
import { qkvHeadsParity } from './parity.ts';
import { composedQkvHeads } from './qkvHeads.ts';
import { HEADS_WEBGPU, QKV_HEADS } from './webgpu.ts';

/** Attention heads from one in-projection output (qkvHeads.ts): fused on WebGPU. */
export const QKV_HEADS_OP = {
  name: 'qkvHeads',
  fused: { qkvHeads: QKV_HEADS },
  gradient: 'registered',
  composition: composedQkvHeads,
  implementations: { webgpu: [HEADS_WEBGPU] },
  parity: { qkvHeads: qkvHeadsParity },
} as const satisfies OpSpec;
