import * as tf from '@tensorflow/tfjs';
import { COLUMN_SUM } from '../columnSum/columnSum.ts';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from '../parity.ts';
import { composedLinear, fusedLinear } from './matMul.ts';

/**
 * The fused linear against the composition on x [300, 48], W [40, 48]: value, dx, dW and db, both with the
 * products `simd` picks (the profile's simdProducts). Null where the backend lacks its kernel.
 */
export async function linearParity(simd: boolean): Promise<ParityErrors | null> {
  if (!hasKernel(COLUMN_SUM)) return null;
  const inputs = { x: randomTensor([300, 48], 31), weight: randomTensor([40, 48], 32, 0.2), bias: randomTensor([40], 33) };
  try {
    return await compareOps(
      (x, w, b) => fusedLinear(x as tf.Tensor2D, w as tf.Tensor2D, b, simd),
      (x, w, b) => composedLinear(x, w, b, simd),
      inputs,
    );
  } finally {
    tf.dispose(Object.values(inputs));
  }
}
