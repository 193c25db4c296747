import * as tf from '@tensorflow/tfjs';

/** Global L2 norm over every gradient, on the device (no read-back). */
export function globalNorm(grads: Iterable<tf.Tensor>): tf.Scalar {
  return tf.tidy(() => {
    const squares = [...grads].map((g) => tf.sum(tf.square(g)));
    return tf.sqrt(tf.addN(squares)) as tf.Scalar;
  });
}

/** torch 1.13 clip_grad_norm_: every gradient is scaled by min(1, max_norm / (norm + 1e-6)). */
export function clipCoefficient(norm: tf.Scalar, maxNorm: number): tf.Scalar {
  return tf.tidy(() => tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))) as tf.Scalar);
}
