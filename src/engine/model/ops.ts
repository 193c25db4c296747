import * as tf from '@tensorflow/tfjs';
import { matMul } from '../kernels/matmul.ts';
import { gatherTableRows } from '../kernels/rowGather.ts';
import { COLUMN_SUM } from '../kernels/webgpu/columnSum.ts';
import { GELU, fusedGelu } from '../kernels/webgpu/gelu.ts';
import { hasKernel } from '../kernels/webgpu/hasKernel.ts';
import { QKV_HEADS, fusedQkvHeads } from '../kernels/webgpu/heads.ts';
import { LAYER_NORM, fusedLayerNorm } from '../kernels/webgpu/layerNorm.ts';
import { fusedLinear } from '../kernels/webgpu/linear.ts';
import { MASKED_SOFTMAX, fusedMaskedSoftmax } from '../kernels/webgpu/softmax.ts';

/** Exact (erf) GELU, as PyTorch's default; the tanh approximation is off by up to 4.7e-4. */
export function gelu(x: tf.Tensor): tf.Tensor {
  return hasKernel(GELU) ? fusedGelu(x) : composedGelu(x);
}

/** The plain tfjs GELU: the reference the fused kernel is tested against, and the path elsewhere. */
export function composedGelu(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2)))));
}

/** LayerNorm over the last axis: biased variance, eps inside the sqrt (PyTorch default eps 1e-5). */
export function layerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
  return hasKernel(LAYER_NORM) ? fusedLayerNorm(x, weight, bias, eps) : composedLayerNorm(x, weight, bias, eps);
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
  return hasKernel(MASKED_SOFTMAX) ? fusedMaskedSoftmax(scores, scale, mask) : composedMaskedSoftmax(scores, scale, mask);
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
  return hasKernel(QKV_HEADS) ? fusedQkvHeads(qkv, heads, clsOnly) : composedQkvHeads(qkv, heads, clsOnly);
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
 * softplus(x) = log(1 + e^x) in the form that never overflows: log1p(e^−|x|) + max(x, 0).
 * Above 20, where torch returns x itself, the first term is below 2e-9, under float32 resolution there.
 */
export function softplus(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.add(tf.log1p(tf.exp(tf.neg(tf.abs(x)))), tf.relu(x)));
}

/**
 * y = x W^T + b for a PyTorch-layout weight [out, in], on inputs of any rank. On WebGPU the bias is
 * added in the product's epilogue and its gradient is one column sum (kernels/webgpu/linear.ts).
 */
export function linear(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const inDim = x.shape[x.rank - 1];
    const outDim = weight.shape[0];
    const flat = tf.reshape(x, [-1, inDim]) as tf.Tensor2D;
    const y = hasKernel(COLUMN_SUM) ? fusedLinear(flat, weight as tf.Tensor2D, bias) : composedLinear(flat, weight, bias);
    return tf.reshape(y, [...x.shape.slice(0, -1), outDim]);
  });
}

/** The plain tfjs x W^T + b on [N, in]: the reference the fused path is tested against, and the path elsewhere. */
export function composedLinear(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  return tf.add(matMul(x, weight, false, true), bias);
}

/**
 * Rows of a table (the embedding lookup, or picking rows of activations) whose gradient is a scatter-add
 * into the table. tf.gather's own gradient goes
 * through UnsortedSegmentSum, which the CPU backend runs as one pass per vocabulary row (50257
 * passes: minutes per step); ScatterNd sums duplicate ids in one pass on every backend.
 */
export function gatherRows(table: tf.Tensor2D, ids: tf.Tensor): tf.Tensor {
  const [rows, width] = table.shape;
  const lookup = tf.customGrad(((t: tf.Tensor, idx: tf.Tensor, save: tf.GradSaveFunc) => {
    // Saving the ids keeps them alive for the backward pass, whoever created them.
    save([idx]);
    return {
      value: gatherTableRows(t as tf.Tensor2D, idx),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [
        tf.scatterND(tf.reshape(saved[0], [-1, 1]), tf.reshape(dy, [-1, width]), [rows, width]),
        // The ids are integers: no gradient flows to them, but the tape wants a float32 tensor.
        tf.zeros(saved[0].shape),
      ],
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return lookup(table, ids);
}
