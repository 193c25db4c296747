import type { OpSpec } from '../opSpec.ts';
import { GATHER_ROWS_HOST } from './host.ts';
import { gatherTableRows } from './rowGather.ts';

/** Rows of a table (rowGather.ts): one row copy per id on the host backends (the profile's hostKernels). */
export const ROW_GATHER_OP = {
  name: 'rowGather',
  fused: {},
  gradient: 'customGrad',
  composition: gatherTableRows,
  implementations: { host: [GATHER_ROWS_HOST] },
} as const satisfies OpSpec;
