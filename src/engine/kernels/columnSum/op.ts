import type { OpSpec } from '../opSpec.ts';
import { COLUMN_SUM_HOST } from './host.ts';
import { COLUMN_SUM_WEBGPU } from './webgpu.ts';

/** Σ per column (columnSum.ts): the fused linear's bias gradient, whose flag and parity check matMul/op.ts holds. */
export const COLUMN_SUM_OP = {
  name: 'columnSum',
  fused: {},
  gradient: 'none',
  implementations: { webgpu: [COLUMN_SUM_WEBGPU], host: [COLUMN_SUM_HOST] },
} as const satisfies OpSpec;
