import * as tf from '@tensorflow/tfjs';
import { fusedBothFinite, fusedClipCoefficient, fusedGlobalNorm } from './webgpu.ts';

/**
 * The gradient clipping's three ops: the global L2 norm over every gradient, torch 1.13 clip_grad_norm_'s
 * coefficient, and the step's finite flag, all on the device (no read-back). Kernels on WebGPU (webgpu.ts,
 * where their names live: a few dispatches), and the tfjs compositions below: the references they are
 * tested against (parity.ts) and the path elsewhere.
 */

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

/** The plain tfjs clip coefficient: the reference and the path elsewhere. */
export function composedClipCoefficient(norm: tf.Scalar, maxNorm: number): tf.Scalar {
  return tf.tidy(() => tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))) as tf.Scalar);
}

/** The plain tfjs check: the reference and the path elsewhere. */
export function composedBothFinite(loss: tf.Scalar, norm: tf.Scalar): tf.Scalar {
  return tf.logicalAnd(tf.isFinite(loss), tf.isFinite(norm)) as tf.Scalar;
}

/** Each op by its kernel where the backend has it (the profile's fused.globalNorm, clipCoefficient, bothFinite), else by the composition. */
export function globalNorm(grads: Iterable<tf.Tensor>, kernel: boolean): tf.Scalar {
  return kernel ? fusedGlobalNorm([...grads]) : composedGlobalNorm(grads);
}

export function clipCoefficient(norm: tf.Scalar, maxNorm: number, kernel: boolean): tf.Scalar {
  return kernel ? fusedClipCoefficient(norm, maxNorm) : composedClipCoefficient(norm, maxNorm);
}

export function bothFinite(loss: tf.Scalar, norm: tf.Scalar, kernel: boolean): tf.Scalar {
  return kernel ? fusedBothFinite(loss, norm) : composedBothFinite(loss, norm);
}
