import * as tf from '@tensorflow/tfjs';
import { fusedMaskedSoftmax } from './webgpu.ts';

/**
 * softmax(scores · scale + mask) over the last axis: scores [B, …, T], mask [B, 1, …, 1, T] broadcast over
 * the middle axes. One kernel (webgpu.ts, WebGPU only, where its name and gradient live), and the tfjs
 * composition: the reference it is tested against (parity.ts) and the path elsewhere.
 */
export function composedMaskedSoftmax(scores: tf.Tensor, scale: number, mask: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.softmax(tf.add(tf.mul(scores, scale), mask)));
}

/** The masked softmax by the kernel where the backend has it (its profile's fused.maskedSoftmax), else by the composition. */
export function maskedSoftmax(scores: tf.Tensor, scale: number, mask: tf.Tensor, kernel: boolean): tf.Tensor {
  return kernel ? fusedMaskedSoftmax(scores, scale, mask) : composedMaskedSoftmax(scores, scale, mask);
}
