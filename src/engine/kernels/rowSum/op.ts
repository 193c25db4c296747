import type { OpSpec } from '../opSpec.ts';
import { rowSumParity } from './parity.ts';
import { ROW_SUM, ROW_SUM_WEBGPU } from './webgpu.ts';

/** The row gather's gradient as a sum per row in a fixed order (webgpu.ts; rowGather/ calls it): WebGPU only. */
export const ROW_SUM_OP = {
  name: 'rowSum',
  fused: { rowSum: ROW_SUM },
  gradient: 'none',
  implementations: { webgpu: [ROW_SUM_WEBGPU] },
  parity: { rowSum: rowSumParity },
} as const satisfies OpSpec;
