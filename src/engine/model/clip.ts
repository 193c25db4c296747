import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile } from '../backend/profile.ts';
import { fusedBothFinite, fusedClipCoefficient, fusedGlobalNorm } from '../kernels/globalNorm/webgpu.ts';

/** Global L2 norm over every gradient, on the device (no read-back); fused (WebGPU), a few dispatches. */
export function globalNorm(grads: Iterable<tf.Tensor>, profile: BackendProfile = activeProfile()): tf.Scalar {
  return profile.fused.globalNorm ? fusedGlobalNorm([...grads]) : composedGlobalNorm(grads);
}

/**
 * The plain tfjs global norm: the reference and the path elsewhere. The partial sums are added in
 * pairs: tf.addN over ~30 inputs returns wrong values on the WebGPU backend (seen: 7× the true norm).
 */
export function composedGlobalNorm(grads: Iterable<tf.Tensor>): tf.Scalar {
  return tf.tidy(() => {
    let total: tf.Tensor = tf.scalar(0);
    for (const g of grads) total = tf.add(total, tf.sum(tf.square(g)));
    return tf.sqrt(total) as tf.Scalar;
  });
}

/** torch 1.13 clip_grad_norm_: every gradient is scaled by min(1, max_norm / (norm + 1e-6)). */
export function clipCoefficient(norm: tf.Scalar, maxNorm: number, profile: BackendProfile = activeProfile()): tf.Scalar {
  return profile.fused.clipCoefficient ? fusedClipCoefficient(norm, maxNorm) : composedClipCoefficient(norm, maxNorm);
}

/** The plain tfjs clip coefficient: the reference and the path elsewhere. */
export function composedClipCoefficient(norm: tf.Scalar, maxNorm: number): tf.Scalar {
  return tf.tidy(() => tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))) as tf.Scalar);
}

/** Whether a step applies its update: its loss and gradient norm both finite (a boolean scalar on the device). */
export function bothFinite(loss: tf.Scalar, norm: tf.Scalar, profile: BackendProfile = activeProfile()): tf.Scalar {
  return profile.fused.bothFinite ? fusedBothFinite(loss, norm) : composedBothFinite(loss, norm);
}

/** The plain tfjs check: the reference and the path elsewhere. */
export function composedBothFinite(loss: tf.Scalar, norm: tf.Scalar): tf.Scalar {
  return tf.logicalAnd(tf.isFinite(loss), tf.isFinite(norm)) as tf.Scalar;
}
