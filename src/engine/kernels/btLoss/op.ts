import type { OpSpec } from '../opSpec.ts';
import { composedBtLoss } from './btLoss.ts';
import { btLossParity } from './parity.ts';
import { BT_LOSS, BT_LOSS_WEBGPU } from './webgpu.ts';

/** The Bradley–Terry loss over a question's pairs (btLoss.ts): fused on WebGPU. */
export const BT_LOSS_OP = {
  name: 'btLoss',
  fused: { btLoss: BT_LOSS },
  gradient: 'registered',
  composition: composedBtLoss,
  implementations: { webgpu: [BT_LOSS_WEBGPU] },
  parity: { btLoss: btLossParity },
} as const satisfies OpSpec;
