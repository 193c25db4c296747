import { ADAMW_OP } from './adamw/op.ts';
import { BT_LOSS_OP } from './btLoss/op.ts';
import { COLUMN_SUM_OP } from './columnSum/op.ts';
import { DROPOUT_OP } from './dropout/op.ts';
import { GELU_OP } from './gelu/op.ts';
import { GLOBAL_NORM_OP } from './globalNorm/op.ts';
import { LAYER_NORM_OP } from './layerNorm/op.ts';
import { MASKED_SOFTMAX_OP } from './maskedSoftmax/op.ts';
import { MAT_MUL_OP } from './matMul/op.ts';
import type { OpSpec, ParityOn } from './opSpec.ts';
import type { ParityErrors } from './parity.ts';
import { QKV_HEADS_OP } from './qkvHeads/op.ts';
import { RAGGED_HEADS_OP } from './raggedHeads/op.ts';
import { ROW_GATHER_OP } from './rowGather/op.ts';
import { ROW_SUM_OP } from './rowSum/op.ts';

/**
 * Every op of this project, each declared in its folder (kernels/<op>/op.ts): the one list that the
 * backend profile, the WebGPU registration, the parity report and the tests read. A new op is its folder
 * and a line here (and the model's use of it, model/ops.ts).
 */
export const OPS = [
  GELU_OP,
  LAYER_NORM_OP,
  MASKED_SOFTMAX_OP,
  QKV_HEADS_OP,
  MAT_MUL_OP,
  COLUMN_SUM_OP,
  BT_LOSS_OP,
  GLOBAL_NORM_OP,
  DROPOUT_OP,
  ADAMW_OP,
  ROW_SUM_OP,
  ROW_GATHER_OP,
  RAGGED_HEADS_OP,
] as const satisfies readonly OpSpec[];

/** The backend profile's fused flags, from the ops' specs. */
export type FusedOp = (typeof OPS)[number] extends infer Op ? (Op extends { fused: infer F } ? keyof F & string : never) : never;

/** Each fused flag with the kernel whose registration for a backend turns it on, in the list's order. */
export const FUSED_KERNELS = OPS.flatMap((op) => Object.entries(op.fused)) as Array<[FusedOp, string]>;

/** Every fused kernel's parity check, by its key in the parity report, in the list's order. */
export const PARITY_CHECKS: ReadonlyArray<readonly [string, (on: ParityOn) => Promise<ParityErrors | null>]> = OPS.flatMap((op: OpSpec) =>
  Object.entries(op.parity ?? {}),
);

/**
 * The parity checks whose kernel the host backends (cpu, wasm) register too: a check keyed by a fused
 * flag whose kernel is in some op's host families.
 */
export const HOST_FUSED: readonly string[] = (() => {
  const hostKernels = new Set(OPS.flatMap((op: OpSpec) => (op.implementations.host ?? []).flatMap((f) => f.kernels.map((k) => k.kernelName))));
  const kernelOf = new Map<string, string>(FUSED_KERNELS);
  return PARITY_CHECKS.map(([key]) => key).filter((key) => hostKernels.has(kernelOf.get(key) ?? ''));
})();
