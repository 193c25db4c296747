import * as tf from '@tensorflow/tfjs';
import { columnSum } from '../columnSum/columnSum.ts';

/**
 * The products in half precision (the profile's halfPrecision): op(a)·op(b) (+ bias) with f16 operands
 * and float32 accumulation (wgsl.ts says how), float32 tensors in and out, so the weights, their
 * gradients and the optimizer's state stay float32 (the master copy). tf.matMul is the reference and the
 * path everywhere else (kernels/matMul/op.ts); a product this kernel does not take (broadcast batches)
 * runs there too. One kernel, registered on WebGPU where the adapter has shader-f16 (webgpu.ts), and its
 * host emulation for the tests (host.ts).
 */
export const HALF_MAT_MUL = 'EormHalfMatMul';

export interface HalfMatMulAttrs {
  transposeA: boolean;
  transposeB: boolean;
}

/** [batch, M, K, N] of op(a)·op(b) for rank-2 or equal-batch rank-3 operands; null for what the kernel does not take. */
export function productDims(a: readonly number[], b: readonly number[], t: HalfMatMulAttrs): [number, number, number, number] | null {
  if (a.length !== b.length || (a.length !== 2 && a.length !== 3)) return null;
  const batch = a.length === 3 ? a[0] : 1;
  if (a.length === 3 && b[0] !== batch) return null;
  const [ar, ac] = a.slice(-2);
  const [br, bc] = b.slice(-2);
  const [M, K] = t.transposeA ? [ac, ar] : [ar, ac];
  const [K2, N] = t.transposeB ? [bc, br] : [br, bc];
  return K === K2 ? [batch, M, K, N] : null;
}

/** op(a)·op(b) in half precision where the kernel takes the shapes, else tf.matMul. */
export function halfMatMul(a: tf.Tensor, b: tf.Tensor, transposeA = false, transposeB = false): tf.Tensor {
  if (!productDims(a.shape, b.shape, { transposeA, transposeB })) return tf.matMul(a, b, transposeA, transposeB);
  return tf.engine().runKernel(HALF_MAT_MUL, { a, b }, { transposeA, transposeB } as unknown as tf.NamedAttrMap) as tf.Tensor;
}

/** y = x Wᵀ + b for x [N, in], W [out, in]: the bias added in the product's epilogue, its gradient one column sum. */
export function halfLinear(x: tf.Tensor2D, weight: tf.Tensor2D, bias: tf.Tensor): tf.Tensor2D {
  return tf.engine().runKernel(HALF_MAT_MUL, { a: x, b: weight, bias }, { transposeA: false, transposeB: true } as unknown as tf.NamedAttrMap) as tf.Tensor2D;
}

/**
 * tf.matMul's gradient rules, each product again in half precision: the backward's upstream gradient
 * enters f16 too, which is why the loss is scaled (precision/lossScaler.ts).
 */
export const HALF_MAT_MUL_GRADIENT: tf.GradConfig = {
  kernelName: HALF_MAT_MUL,
  inputsToSave: ['a', 'b'],
  gradFunc: (dy: tf.Tensor | tf.Tensor[], saved: tf.Tensor[], attrs: tf.NamedAttrMap) => {
    const g = dy as tf.Tensor;
    const [a, b] = saved;
    const { transposeA: tA, transposeB: tB } = attrs as unknown as HalfMatMulAttrs;
    const da = !tA ? (!tB ? halfMatMul(g, b, false, true) : halfMatMul(g, b)) : !tB ? halfMatMul(b, g, false, true) : halfMatMul(b, g, true, true);
    const db = !tA ? (!tB ? halfMatMul(a, g, true, false) : halfMatMul(g, a, true, false)) : !tB ? halfMatMul(a, g) : halfMatMul(g, a, true, true);
    return { a: () => da, b: () => db, bias: () => columnSum(g) };
  },
};
