import * as tf from '@tensorflow/tfjs';

/**
 * Global L2 norm over every gradient, on the device (no read-back). The partial sums are added in
 * pairs: tf.addN over ~30 inputs returns wrong values on the WebGPU backend (seen: 7× the true norm).
 */
export function globalNorm(grads: Iterable<tf.Tensor>): tf.Scalar {
  return tf.tidy(() => {
    let total: tf.Tensor = tf.scalar(0);
    for (const g of grads) total = tf.add(total, tf.sum(tf.square(g)));
    return tf.sqrt(total) as tf.Scalar;
  });
}

/** torch 1.13 clip_grad_norm_: every gradient is scaled by min(1, max_norm / (norm + 1e-6)). */
export function clipCoefficient(norm: tf.Scalar, maxNorm: number): tf.Scalar {
  return tf.tidy(() => tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))) as tf.Scalar);
}
