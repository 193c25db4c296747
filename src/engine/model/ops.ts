import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { gelu as geluOp } from '../kernels/gelu/gelu.ts';
import { layerNorm as layerNormOp } from '../kernels/layerNorm/layerNorm.ts';
import { maskedSoftmax as maskedSoftmaxOp } from '../kernels/maskedSoftmax/maskedSoftmax.ts';
import { composedLinear, fusedLinear, matMul as product } from '../kernels/matMul/matMul.ts';
import { qkvHeads as qkvHeadsOp } from '../kernels/qkvHeads/qkvHeads.ts';
export { softplus } from '../kernels/btLoss/btLoss.ts';
import { gatherRows as gatherRowsOp, gatherTableRows as gatherTableRowsOp } from '../kernels/rowGather/rowGather.ts';
import type { RowOrder } from '../kernels/rowSum/rowSum.ts';
import { halfLinear, halfMatMul } from '../kernels/halfMatMul/op.ts';

/**
 * The model's operations on one backend. Each runs the fused kernel `profile` names for it, else its
 * plain tfjs composition, which stays the reference the kernels are tested against: both sit in the op's
 * folder, kernels/<op>/<op>.ts, with the kernels and their parity checks. The profile is handed in (once
 * per forward, transebm.ts), never looked up by an op.
 */
function opsOf(profile: BackendProfile) {
  /** Exact (erf) GELU, as PyTorch's default (kernels/gelu/). */
  function gelu(x: tf.Tensor): tf.Tensor {
    return geluOp(x, profile.fused.gelu);
  }

  /** LayerNorm over the last axis: biased variance, eps inside the sqrt (PyTorch default eps 1e-5; kernels/layerNorm/). */
  function layerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
    return layerNormOp(x, weight, bias, eps, profile.fused.layerNorm);
  }

  /** softmax(scores · scale + mask) over the last axis: scores [B, …, T], mask [B, 1, …, 1, T] broadcast over the middle axes. */
  function maskedSoftmax(scores: tf.Tensor, scale: number, mask: tf.Tensor): tf.Tensor {
    return maskedSoftmaxOp(scores, scale, mask, profile.fused.maskedSoftmax);
  }

  /**
   * Attention heads from one in-projection output qkv [B, T, 3d] (queries, keys, values side by side):
   * [q, k, v] as [B·H, len, dh], len = T, or 1 for q with `clsOnly` (the queries of position 0).
   */
  function qkvHeads(qkv: tf.Tensor3D, heads: number, clsOnly: boolean): [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D] {
    return qkvHeadsOp(qkv, heads, clsOnly, profile.fused.qkvHeads);
  }

  /**
   * Queries, keys and values of the padded layer as heads [B·H, len, dh] from its input h [B, T, d] and
   * the in-projection (PyTorch's in_proj_weight [3d, d] and bias); with `clsOnly` the queries of position 0
   * only. As the profile says: one product split by qkvHeads (a GPU's few big dispatches: ~7 with the
   * gradients instead of ~30; the gradients' sums run in another order, so they round differently, and
   * the last layer computes every position's query, whose extra rows cost less than dispatches), or one
   * product and one slice of the weight per part (the reference).
   */
  function attentionHeads(h: tf.Tensor, wIn: tf.Tensor, bIn: tf.Tensor, heads: number, clsOnly: boolean): [tf.Tensor, tf.Tensor, tf.Tensor] {
    if (profile.headsFromOneProduct) return qkvHeads(linear(h, wIn, bIn) as tf.Tensor3D, heads, clsOnly);
    const [B, T, d] = h.shape;
    const dh = d / heads;
    const part = (i: number, rows: tf.Tensor, len: number) => {
      const y = linear(rows, tf.slice(wIn, [i * d, 0], [d, d]), tf.slice(bIn, [i * d], [d]));
      return tf.reshape(tf.transpose(tf.reshape(y, [B, len, heads, dh]), [0, 2, 1, 3]), [B * heads, len, dh]);
    };
    return [part(0, clsOnly ? tf.slice(h, [0, 0, 0], [B, 1, d]) : h, clsOnly ? 1 : T), part(1, h, T), part(2, h, T)];
  }

  /**
   * y = x W^T + b for a PyTorch-layout weight [out, in], on inputs of any rank. Fused: the bias is added
   * in the product's epilogue and its gradient is one column sum (kernels/matMul/matMul.ts).
   */
  function linear(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
    return tf.tidy(() => {
      const inDim = x.shape[x.rank - 1];
      const outDim = weight.shape[0];
      const flat = tf.reshape(x, [-1, inDim]) as tf.Tensor2D;
      const simd = profile.simdProducts;
      const y = profile.halfPrecision
        ? halfLinear(flat, weight as tf.Tensor2D, bias)
        : profile.fused.linear
          ? fusedLinear(flat, weight as tf.Tensor2D, bias, simd)
          : composedLinear(flat, weight, bias, simd);
      return tf.reshape(y, [...x.shape.slice(0, -1), outDim]);
    });
  }

  /** op(a)·op(b) on rank-2 or rank-3 tensors: by this project's SIMD loops where the profile says so, else tf.matMul (kernels/matMul/). */
  function matMul(a: tf.Tensor, b: tf.Tensor, transposeA = false, transposeB = false): tf.Tensor {
    return profile.halfPrecision ? halfMatMul(a, b, transposeA, transposeB) : product(a, b, transposeA, transposeB, profile.simdProducts);
  }

  /** tf.gather(table, ids) along axis 0: on the host backends one row copy per id (kernels/rowGather/). */
  function gatherTableRows(table: tf.Tensor2D, ids: tf.Tensor): tf.Tensor {
    return gatherTableRowsOp(table, ids, profile.hostKernels);
  }

  /**
   * Rows of a table (the embedding lookup, or picking rows of activations) whose gradient is a scatter-add
   * into the table (kernels/rowGather/rowGather.ts); with `byRow` and the fused kernel the profile names, a sum
   * per row in a fixed order instead.
   */
  function gatherRows(table: tf.Tensor2D, ids: tf.Tensor, byRow?: RowOrder): tf.Tensor {
    return gatherRowsOp(table, ids, byRow && profile.fused.rowSum ? byRow : undefined, profile.hostKernels);
  }

  return { gelu, layerNorm, maskedSoftmax, qkvHeads, attentionHeads, linear, matMul, gatherTableRows, gatherRows };
}

/** The model's operations for a profile (see opsOf). */
export type ModelOps = ReturnType<typeof opsOf>;

const made = new WeakMap<BackendProfile, ModelOps>();

/** The model's operations on the backend `profile` describes: made once per profile. */
export function modelOps(profile: BackendProfile): ModelOps {
  let ops = made.get(profile);
  if (!ops) made.set(profile, (ops = opsOf(profile)));
  return ops;
}
