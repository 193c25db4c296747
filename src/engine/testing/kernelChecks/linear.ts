import * as tf from '@tensorflow/tfjs';
import { composedLinear } from '../../model/ops.ts';
import { COLUMN_SUM } from '../../kernels/webgpu/columnSum.ts';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from './compare.ts';
import { fusedLinear } from '../../kernels/linear.ts';

/** The WebGPU linear against the composition on x [300, 48], W [40, 48]: value, dx, dW and db. Null where the backend lacks its kernel. */
export async function linearParity(): Promise<ParityErrors | null> {
  if (!hasKernel(COLUMN_SUM)) return null;
  const inputs = { x: randomTensor([300, 48], 31), weight: randomTensor([40, 48], 32, 0.2), bias: randomTensor([40], 33) };
  try {
    return await compareOps((x, w, b) => fusedLinear(x as tf.Tensor2D, w as tf.Tensor2D, b), composedLinear, inputs);
  } finally {
    tf.dispose(Object.values(inputs));
  }
}
