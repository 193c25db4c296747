import * as tf from '@tensorflow/tfjs';
import { DROPOUT, fusedDropout } from './dropout.ts';
import { type ParityErrors, compareOps, randomTensor } from './fusedParity.ts';
import { hasKernel } from './hasKernel.ts';

/**
 * The fused dropout, given the draws for a seed, against tf.dropout with that seed: value and dx on
 * [7, 300] at rate 0.1 (tf.dropout zeroes about a tenth, so equal values mean the same mask). Null
 * where the backend has no fused kernel.
 */
export async function dropoutParity(): Promise<ParityErrors | null> {
  if (!hasKernel(DROPOUT)) return null;
  const rate = 0.1;
  const seed = 12345;
  const x = randomTensor([7, 300], 5, 2);
  const u = tf.randomUniform(x.shape, 0, 1, 'float32', seed);
  try {
    return await compareOps((xi) => fusedDropout(xi, u, rate), (xi) => tf.dropout(xi, rate, undefined, seed), { x });
  } finally {
    tf.dispose([x, u]);
  }
}
