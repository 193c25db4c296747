import * as tf from '@tensorflow/tfjs';
import { columnSum } from '../columnSum/columnSum.ts';
import { simdMatMul } from './host.ts';

/**
 * The products: every matrix product of the model goes through `matMul`, every x Wᵀ + b through
 * `fusedLinear` or `composedLinear`. `simd` (the profile's simdProducts) picks this project's WebAssembly
 * SIMD loops (host.ts, wasm.ts; tfjs-wasm only), else tfjs's own tf.matMul and tf.fused.matMul.
 */

/** op(a)·op(b) on rank-2 or rank-3 tensors: by the SIMD loops where `simd`, else tf.matMul (the reference). */
export function matMul(a: tf.Tensor, b: tf.Tensor, transposeA = false, transposeB = false, simd = false): tf.Tensor {
  return simd ? simdMatMul(a, b, transposeA, transposeB) : tf.matMul(a, b, transposeA, transposeB);
}

/**
 * y = x Wᵀ + b for x [N, in], W [out, in], with a gradient whose bias part is one column sum (the
 * profile's fused.linear: where a COLUMN_SUM kernel is registered). Without `simd` the bias is added in
 * the product's epilogue (tfjs's fused matMul: one dispatch instead of two on WebGPU), and the column sum
 * replaces the fused matMul's sum over the leading axes with a transpose first (two dispatches). With
 * `simd` the products are the SIMD loops', and the bias an add.
 */
export function fusedLinear(x: tf.Tensor2D, weight: tf.Tensor2D, bias: tf.Tensor, simd: boolean): tf.Tensor2D {
  const f = tf.customGrad(((a: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor, save: tf.GradSaveFunc) => {
    save([a, w]);
    return {
      value: simd ? tf.add(simdMatMul(a, w, false, true), b) : tf.fused.matMul({ a, b: w, transposeB: true, bias: b }),
      gradFunc: (dy: tf.Tensor2D, [xs, ws]: tf.Tensor[]) => [matMul(dy, ws, false, false, simd), matMul(dy, xs, true, false, simd), columnSum(dy)],
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(x, weight, bias) as tf.Tensor2D;
}

/** The plain x Wᵀ + b on [N, in]: the reference the fused path is tested against (parity.ts), and the path elsewhere. */
export function composedLinear(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, simd: boolean): tf.Tensor {
  return tf.add(matMul(x, weight, false, true, simd), bias);
}
