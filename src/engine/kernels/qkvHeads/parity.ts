import * as tf from '@tensorflow/tfjs';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from '../parity.ts';
import { QKV_HEADS, fusedQkvHeads } from './webgpu.ts';
import { composedQkvHeads } from './qkvHeads.ts';

/**
 * The heads kernels against the composition on qkv [2, 5, 48] (4 heads of 4), with every query and
 * with the CLS queries only: q, k and v side by side, and dqkv. Null where the backend lacks the kernels.
 */
export async function qkvHeadsParity(): Promise<ParityErrors | null> {
  if (!hasKernel(QKV_HEADS)) return null;
  const qkv = randomTensor([2, 5, 48], 51);
  const joined = (split: typeof composedQkvHeads, clsOnly: boolean) => (x: tf.Tensor) =>
    tf.concat(split(x as tf.Tensor3D, 4, clsOnly).map((t) => tf.reshape(t, [-1])));
  const worst: ParityErrors = {};
  for (const clsOnly of [false, true]) {
    const errors = await compareOps(joined(fusedQkvHeads, clsOnly), joined(composedQkvHeads, clsOnly), { qkv });
    for (const [k, v] of Object.entries(errors)) worst[k] = Math.max(worst[k] ?? 0, v);
  }
  qkv.dispose();
  return worst;
}
