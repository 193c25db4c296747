import { COLUMN_SUM } from '../columnSum/columnSum.ts';
import type { OpSpec } from '../opSpec.ts';
import { GEMM_WASM } from './host.ts';
import { composedLinear } from './matMul.ts';
import { linearParity } from './parity.ts';
import { simdGemm } from './wasm.ts';

/**
 * The products and the linear layer (matMul.ts). The fused linear (its bias gradient one column sum) is on
 * where columnSum's kernel is registered (columnSum/op.ts); WASM's products run this project's SIMD loops.
 */
export const MAT_MUL_OP = {
  name: 'matMul',
  fused: { linear: COLUMN_SUM },
  gradient: 'customGrad',
  composition: composedLinear,
  implementations: { host: [GEMM_WASM] },
  simd: (backend) => {
    const gemm = simdGemm(backend);
    return { gemm: gemm !== null, 'gemm fused multiply-add': gemm?.fused === true };
  },
  parity: { linear: (on) => linearParity(on.simdProducts) },
} as const satisfies OpSpec;
