import * as tf from '@tensorflow/tfjs';
import { composedLinear } from '../matMul/matMul.ts';
import { QUANT_LINEAR, takesShapes } from './host.ts';
import { quantLoops } from './wasm.ts';

/**
 * y = x Wᵀ + b for scoring with 8-bit products (the profile's quantizedScoring): the kernel (host.ts) on
 * tfjs-wasm where it takes the shapes, else the float32 composition, which stays the reference
 * (quantLinear.test.ts bounds the difference). Never under a gradient: scoring only.
 */
export function quantLinear(x: tf.Tensor2D, weight: tf.Tensor2D, bias: tf.Tensor, simd: boolean): tf.Tensor {
  const [, k] = x.shape;
  const [n] = weight.shape;
  if (tf.getBackend() !== 'wasm' || !takesShapes(k, n) || quantLoops(tf.backend()) === null) return composedLinear(x, weight, bias, simd);
  return tf.engine().runKernel(QUANT_LINEAR, { x, w: weight, b: bias }) as tf.Tensor;
}
