import type * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import * as ops from '../kernels/globalNorm/globalNorm.ts';

/** Global L2 norm over every gradient, on the device (no read-back); fused (WebGPU), a few dispatches (kernels/globalNorm/). */
export function globalNorm(grads: Iterable<tf.Tensor>, profile: BackendProfile): tf.Scalar {
  return ops.globalNorm(grads, profile.fused.globalNorm);
}

/** torch 1.13 clip_grad_norm_: every gradient is scaled by min(1, max_norm / (norm + 1e-6)). */
export function clipCoefficient(norm: tf.Scalar, maxNorm: number, profile: BackendProfile): tf.Scalar {
  return ops.clipCoefficient(norm, maxNorm, profile.fused.clipCoefficient);
}

/** Whether a step applies its update: its loss and gradient norm both finite (a boolean scalar on the device). */
export function bothFinite(loss: tf.Scalar, norm: tf.Scalar, profile: BackendProfile): tf.Scalar {
  return ops.bothFinite(loss, norm, profile.fused.bothFinite);
}
