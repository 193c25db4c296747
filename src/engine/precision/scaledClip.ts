import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { clipCoefficient, globalNorm } from '../model/clip.ts';

/**
 * Global-norm clipping of gradients computed from a loss multiplied by `scale` (the loss scaler's; 1
 * where none): the norm divided by the scale is the true one, clipped as ever, and AdamW multiplies each
 * gradient by clip / scale in the update it runs anyway, so unscaling costs no pass over the gradients.
 * Where the gradients overflowed the norm is not finite and the step is skipped (bothFinite).
 */
export function clipScaled(
  grads: ReadonlyMap<string, tf.Tensor>,
  scale: tf.Scalar | undefined,
  maxGradNorm: number,
  profile: BackendProfile,
): { gradNorm: tf.Scalar; clipCoef: tf.Scalar; gradScale: tf.Scalar } {
  const raw = globalNorm(grads.values(), profile);
  if (!scale) {
    const clipCoef = clipCoefficient(raw, maxGradNorm, profile);
    return { gradNorm: raw, clipCoef, gradScale: clipCoef };
  }
  const gradNorm = tf.div(raw, scale) as tf.Scalar;
  const clipCoef = clipCoefficient(gradNorm, maxGradNorm, profile);
  return { gradNorm, clipCoef, gradScale: tf.div(clipCoef, scale) as tf.Scalar };
}
