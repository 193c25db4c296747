import * as tf from '@tensorflow/tfjs';
import { composedBtLoss, composedBtLossGradient } from './btLoss.ts';
import { pairGroups } from './pairGroups.ts';
import { BT_LOSS, fusedBtLoss, fusedBtLossGradient } from './webgpu.ts';
import { type ParityErrors, hasKernel, compareOps, randomTensor, relativeError } from '../parity.ts';

/**
 * The fused Bradley-Terry loss against the composition on 14 candidates in five groups (two outside the
 * loss: one has only correct answers, one only an incorrect one): the value, dE through autodiff, and the closed-form dL/dE the
 * micro-batched step uses. Null where the backend has no fused kernel.
 */
export async function btLossParity(): Promise<ParityErrors | null> {
  if (!hasKernel(BT_LOSS)) return null;
  const groupOf = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4];
  const labels = [1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0];
  const pairs = pairGroups(labels, groupOf);
  const e = randomTensor([groupOf.length], 7, 3) as tf.Tensor1D;
  try {
    const errors = await compareOps(
      (x) => fusedBtLoss(x as tf.Tensor1D, pairs),
      (x) => composedBtLoss(x as tf.Tensor1D, pairs),
      { e },
    );
    const [a, b] = [fusedBtLossGradient(e, pairs), composedBtLossGradient(e, pairs)];
    errors.closedForm = await relativeError(a, b);
    tf.dispose([a, b]);
    return errors;
  } finally {
    e.dispose();
  }
}
