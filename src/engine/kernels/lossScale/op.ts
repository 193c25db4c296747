import * as tf from '@tensorflow/tfjs';
import type { LossScaleRule } from '../../precision/lossScale.ts';

/**
 * The loss scale's update on the device, every step, nothing read back: state [scale, clean steps]
 * becomes the AMP rule's next state (precision/lossScale.ts, the host reference) given the step's
 * finite flag. The composition (tfjs ops, any backend, a new tensor assigned to the state) is the
 * reference of the WebGPU kernel (webgpu.ts), which writes the state in place, as a replayed step needs
 * (its externals keep their buffers).
 */
export const LOSS_SCALE_UPDATE = 'EormLossScaleUpdate';

export function composedNextLossScale(state: tf.Tensor1D, finite: tf.Scalar, rule: LossScaleRule): tf.Tensor1D {
  return tf.tidy(() => {
    const [scale, clean] = tf.unstack(state) as [tf.Scalar, tf.Scalar];
    const count = tf.add(clean, 1);
    const due = tf.greaterEqual(count, rule.growthInterval);
    const grown = tf.mul(scale, rule.growthFactor);
    const onClean = tf.where(tf.logicalAnd(due, tf.isFinite(grown)), grown, scale);
    const nextScale = tf.where(finite, onClean, tf.mul(scale, rule.backoffFactor));
    const nextClean = tf.where(tf.logicalAnd(finite, tf.logicalNot(due)), count, tf.scalar(0));
    return tf.stack([nextScale, nextClean]) as tf.Tensor1D;
  });
}

/** Updates `state` (a variable) from `finite`: in place by the kernel where `kernel`, else by the composition. */
export function updateLossScale(state: tf.Variable, finite: tf.Scalar, rule: LossScaleRule, kernel: boolean): void {
  if (kernel) tf.engine().runKernel(LOSS_SCALE_UPDATE, { state, finite }, { ...rule });
  // In a tidy: the new value's tensor goes once the variable holds its data.
  else tf.tidy(() => state.assign(composedNextLossScale(state as tf.Tensor1D, finite, rule)));
}
