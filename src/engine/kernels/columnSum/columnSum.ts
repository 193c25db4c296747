import * as tf from '@tensorflow/tfjs';

/**
 * Σ over every row of x [..., d] per column: the bias gradient of a linear layer (matMul/matMul.ts), by the
 * kernel registered for the active backend (webgpu.ts, host.ts).
 */
export const COLUMN_SUM = 'EormColumnSum';

export function columnSum(x: tf.Tensor): tf.Tensor1D {
  return tf.engine().runKernel(COLUMN_SUM, { x }) as tf.Tensor1D;
}
