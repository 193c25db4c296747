import * as tf from '@tensorflow/tfjs';
import { activeProfile } from '../backend/profile.ts';
import { simdMatMul } from './hostGemm.ts';
import { columnSum } from './webgpu/columnSum.ts';

/**
 * y = x Wᵀ + b for x [N, in], W [out, in], with a gradient whose bias part is one column sum (the
 * profile's fused.linear: where a COLUMN_SUM kernel is registered). On WebGPU the bias is added in the
 * product's epilogue (tfjs's fused matMul: one dispatch instead of two), and the column sum replaces the
 * fused matMul's sum over the leading axes with a transpose first (two dispatches). Where products run in
 * this project's SIMD loops (WASM, kernels/hostGemm.ts) the products are those, and the bias an add.
 */
export function fusedLinear(x: tf.Tensor2D, weight: tf.Tensor2D, bias: tf.Tensor): tf.Tensor2D {
  const simd = activeProfile().simdProducts;
  const f = tf.customGrad(((a: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor, save: tf.GradSaveFunc) => {
    save([a, w]);
    return {
      value: simd ? tf.add(simdMatMul(a, w, false, true), b) : tf.fused.matMul({ a, b: w, transposeB: true, bias: b }),
      gradFunc: (dy: tf.Tensor2D, [xs, ws]: tf.Tensor[]) => {
        const product = simd ? simdMatMul : tf.matMul;
        return [product(dy, ws, false, false), product(dy, xs, true, false), columnSum(dy)];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(x, weight, bias) as tf.Tensor2D;
}
