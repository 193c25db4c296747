import * as tf from '@tensorflow/tfjs';
import { activeProfile } from '../backend/profile.ts';
import { simdMatMul } from '../kernels/hostGemm.ts';
import { hostGatherRows } from '../kernels/rowGather.ts';
import { fusedGelu } from '../kernels/webgpu/gelu.ts';
import { fusedQkvHeads } from '../kernels/webgpu/heads.ts';
import { fusedLayerNorm } from '../kernels/webgpu/layerNorm.ts';
import { fusedLinear } from '../kernels/linear.ts';
import { type RowOrder, rowSum } from '../kernels/webgpu/rowSum.ts';
import { fusedMaskedSoftmax } from '../kernels/webgpu/softmax.ts';

/**
 * The model's operations. Each runs the fused kernel the backend profile names for it, else its plain
 * tfjs composition (composed*), which stays the reference the kernels are tested against.
 */
const fused = () => activeProfile().fused;

/** Exact (erf) GELU, as PyTorch's default; the tanh approximation is off by up to 4.7e-4. */
export function gelu(x: tf.Tensor): tf.Tensor {
  return fused().gelu ? fusedGelu(x) : composedGelu(x);
}

/** The plain tfjs GELU: the reference the fused kernel is tested against, and the path elsewhere. */
export function composedGelu(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2)))));
}

/** LayerNorm over the last axis: biased variance, eps inside the sqrt (PyTorch default eps 1e-5). */
export function layerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
  return fused().layerNorm ? fusedLayerNorm(x, weight, bias, eps) : composedLayerNorm(x, weight, bias, eps);
}

/** The plain tfjs LayerNorm: the reference the fused kernel is tested against, and the path elsewhere. */
export function composedLayerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
  return tf.tidy(() => {
    const centered = tf.sub(x, tf.mean(x, -1, true));
    const variance = tf.mean(tf.square(centered), -1, true);
    return tf.add(tf.mul(tf.mul(centered, tf.rsqrt(tf.add(variance, eps))), weight), bias);
  });
}

/** softmax(scores · scale + mask) over the last axis: scores [B, …, T], mask [B, 1, …, 1, T] broadcast over the middle axes. */
export function maskedSoftmax(scores: tf.Tensor, scale: number, mask: tf.Tensor): tf.Tensor {
  return fused().maskedSoftmax ? fusedMaskedSoftmax(scores, scale, mask) : composedMaskedSoftmax(scores, scale, mask);
}

/** The plain tfjs masked softmax: the reference the fused kernel is tested against, and the path elsewhere. */
export function composedMaskedSoftmax(scores: tf.Tensor, scale: number, mask: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.softmax(tf.add(tf.mul(scores, scale), mask)));
}

/**
 * Attention heads from one in-projection output qkv [B, T, 3d] (queries, keys, values side by side):
 * [q, k, v] as [B·H, len, dh], len = T, or 1 for q with `clsOnly` (the queries of position 0).
 */
export function qkvHeads(qkv: tf.Tensor3D, heads: number, clsOnly: boolean): [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D] {
  return fused().qkvHeads ? fusedQkvHeads(qkv, heads, clsOnly) : composedQkvHeads(qkv, heads, clsOnly);
}

/** The plain tfjs split: one transpose to [3, B·H, T, dh], unstacked; the reference the kernels are tested against. */
export function composedQkvHeads(qkv: tf.Tensor3D, heads: number, clsOnly: boolean): [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D] {
  return tf.tidy(() => {
    const [B, T, d3] = qkv.shape;
    const dh = d3 / 3 / heads;
    const [q, k, v] = tf.unstack(tf.reshape(tf.transpose(tf.reshape(qkv, [B, T, 3, heads, dh]), [2, 0, 3, 1, 4]), [3, B * heads, T, dh])) as tf.Tensor3D[];
    return [clsOnly ? tf.slice(q, [0, 0, 0], [B * heads, 1, dh]) : q, k, v];
  });
}

/**
 * Queries, keys and values of the padded layer as heads [B·H, len, dh] from its input h [B, T, d] and
 * the in-projection (PyTorch's in_proj_weight [3d, d] and bias); with `clsOnly` the queries of position 0
 * only. As the profile says: one product split by qkvHeads (a GPU's few big dispatches: ~7 with the
 * gradients instead of ~30; the gradients' sums run in another order, so they round differently, and
 * the last layer computes every position's query, whose extra rows cost less than dispatches), or one
 * product and one slice of the weight per part (the reference).
 */
export function attentionHeads(h: tf.Tensor, wIn: tf.Tensor, bIn: tf.Tensor, heads: number, clsOnly: boolean): [tf.Tensor, tf.Tensor, tf.Tensor] {
  if (activeProfile().headsFromOneProduct) return qkvHeads(linear(h, wIn, bIn) as tf.Tensor3D, heads, clsOnly);
  const [B, T, d] = h.shape;
  const dh = d / heads;
  const part = (i: number, rows: tf.Tensor, len: number) => {
    const y = linear(rows, tf.slice(wIn, [i * d, 0], [d, d]), tf.slice(bIn, [i * d], [d]));
    return tf.reshape(tf.transpose(tf.reshape(y, [B, len, heads, dh]), [0, 2, 1, 3]), [B * heads, len, dh]);
  };
  return [part(0, clsOnly ? tf.slice(h, [0, 0, 0], [B, 1, d]) : h, clsOnly ? 1 : T), part(1, h, T), part(2, h, T)];
}

/**
 * softplus(x) = log(1 + e^x) in the form that never overflows: log1p(e^−|x|) + max(x, 0).
 * Above 20, where torch returns x itself, the first term is below 2e-9, under float32 resolution there.
 */
export function softplus(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.add(tf.log1p(tf.exp(tf.neg(tf.abs(x)))), tf.relu(x)));
}

/**
 * y = x W^T + b for a PyTorch-layout weight [out, in], on inputs of any rank. Fused: the bias is added
 * in the product's epilogue and its gradient is one column sum (kernels/linear.ts).
 */
export function linear(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const inDim = x.shape[x.rank - 1];
    const outDim = weight.shape[0];
    const flat = tf.reshape(x, [-1, inDim]) as tf.Tensor2D;
    const y = fused().linear ? fusedLinear(flat, weight as tf.Tensor2D, bias) : composedLinear(flat, weight, bias);
    return tf.reshape(y, [...x.shape.slice(0, -1), outDim]);
  });
}

/** op(a)·op(b) on rank-2 or rank-3 tensors: by this project's SIMD loops where the profile says so, else tf.matMul. */
export function matMul(a: tf.Tensor, b: tf.Tensor, transposeA = false, transposeB = false): tf.Tensor {
  return activeProfile().simdProducts ? simdMatMul(a, b, transposeA, transposeB) : tf.matMul(a, b, transposeA, transposeB);
}

/** The plain tfjs x W^T + b on [N, in]: the reference the fused path is tested against, and the path elsewhere. */
export function composedLinear(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  return tf.add(matMul(x, weight, false, true), bias);
}

/** tf.gather(table, ids) along axis 0: on the host backends one row copy per id (kernels/rowGather.ts). */
export function gatherTableRows(table: tf.Tensor2D, ids: tf.Tensor): tf.Tensor {
  return activeProfile().hostKernels ? hostGatherRows(table, ids) : tf.gather(table, ids);
}

/**
 * Rows of a table (the embedding lookup, or picking rows of activations) whose gradient is a scatter-add
 * into the table. tf.gather's own gradient goes
 * through UnsortedSegmentSum, which the CPU backend runs as one pass per vocabulary row (50257
 * passes: minutes per step); ScatterNd sums duplicate ids in one pass on every backend. With `byRow`
 * (the ids' positions grouped by row, a WebGPU step's input) and the fused kernel, the gradient is a sum
 * per row in a fixed order instead (webgpu/rowSum.ts): ScatterNd's atomics add in any order.
 */
export function gatherRows(table: tf.Tensor2D, ids: tf.Tensor, byRow?: RowOrder): tf.Tensor {
  const [rows, width] = table.shape;
  const ordered = byRow && fused().rowSum ? byRow : null;
  const lookup = tf.customGrad(((t: tf.Tensor, idx: tf.Tensor, save: tf.GradSaveFunc) => {
    // Saving the ids keeps them alive for the backward pass, whoever created them.
    save([idx]);
    return {
      value: gatherTableRows(t as tf.Tensor2D, idx),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [
        ordered ? rowSum(tf.reshape(dy, [-1, width]) as tf.Tensor2D, ordered, rows) : tf.scatterND(tf.reshape(saved[0], [-1, 1]), tf.reshape(dy, [-1, width]), [rows, width]),
        // The ids are integers: no gradient flows to them, but the tape wants a float32 tensor.
        tf.zeros(saved[0].shape),
      ],
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return lookup(table, ids);
}
