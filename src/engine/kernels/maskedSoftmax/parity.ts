import * as tf from '@tensorflow/tfjs';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from '../parity.ts';
import { MASKED_SOFTMAX, fusedMaskedSoftmax } from './webgpu.ts';
import { composedMaskedSoftmax } from './maskedSoftmax.ts';

/**
 * The fused masked softmax against the composition: value and dscores on [2, 3, 5, 70] and the CLS-only
 * [2, 3, 1, 70], keys padded from 33 in the second candidate (the mask the model builds: 0 or −1e9).
 * Null where the backend has no fused kernel.
 */
export async function maskedSoftmaxParity(): Promise<ParityErrors | null> {
  if (!hasKernel(MASKED_SOFTMAX)) return null;
  const T = 70;
  const mask = tf.tensor4d(
    Array.from({ length: 2 * T }, (_, i) => (i >= T + 33 ? -1e9 : 0)),
    [2, 1, 1, T],
  );
  const worst: ParityErrors = {};
  for (const [queries, seed] of [
    [5, 21],
    [1, 22],
  ]) {
    const scores = randomTensor([2, 3, queries, T], seed, 8);
    const errors = await compareOps(
      (s, m) => fusedMaskedSoftmax(s, 0.25, m),
      (s, m) => composedMaskedSoftmax(s, 0.25, m),
      { scores, mask },
      ['scores'],
    );
    scores.dispose();
    for (const [k, v] of Object.entries(errors)) worst[k] = Math.max(worst[k] ?? 0, v);
  }
  mask.dispose();
  return worst;
}
