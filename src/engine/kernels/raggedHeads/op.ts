import type { OpSpec } from '../opSpec.ts';
import { RAGGED_HEADS_HOST } from './host.ts';

/** Attention heads cut from and pasted into packed rows (host.ts; the packed forward's): the host backends only. */
export const RAGGED_HEADS_OP = {
  name: 'raggedHeads',
  fused: {},
  gradient: 'registered',
  implementations: { host: [RAGGED_HEADS_HOST] },
} as const satisfies OpSpec;
