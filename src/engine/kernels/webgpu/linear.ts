import * as tf from '@tensorflow/tfjs';
import { columnSum } from './columnSum.ts';

/**
 * y = x Wᵀ + b on WebGPU for x [N, in], W [out, in]: the bias added in the product's epilogue (tfjs's
 * fused matMul: one dispatch instead of two), and a gradient whose bias part is one column sum (the
 * fused matMul's own sums over the leading axes with a transpose first: two dispatches). Needs the
 * column sum's kernel (the profile's fused.linear).
 */

export function fusedLinear(x: tf.Tensor2D, weight: tf.Tensor2D, bias: tf.Tensor): tf.Tensor2D {
  const f = tf.customGrad(((a: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor, save: tf.GradSaveFunc) => {
    save([a, w]);
    return {
      value: tf.fused.matMul({ a, b: w, transposeB: true, bias: b }),
      gradFunc: (dy: tf.Tensor2D, [xs, ws]: tf.Tensor[]) => [tf.matMul(dy, ws), tf.matMul(dy, xs, true, false), columnSum(dy)],
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(x, weight, bias) as tf.Tensor2D;
}
