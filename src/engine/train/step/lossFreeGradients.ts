import * as tf from '@tensorflow/tfjs';

/**
 * The entries [start, end) of parameter `name` whose gradient is exactly 0 in exact arithmetic, whatever
 * the batch; null for a parameter without any:
 * - the energy head's bias (head.3.bias): the Bradley-Terry loss sees only energy differences within a group;
 * - each layer's attention key bias (self_attn.in_proj_bias[d, 2d)): q·b_k is the same for every key of a
 *   query, and softmax drops a constant.
 * python/eorm/training/step.py (loss_free_range) names the same entries.
 */
export function lossFreeRange(name: string, dModel: number): [number, number] | null {
  if (name === 'head.3.bias') return [0, 1];
  if (name.endsWith('self_attn.in_proj_bias')) return [dModel, 2 * dModel];
  return null;
}

/**
 * The step's gradients with the loss-free entries set to exactly 0, in place (the tensors replaced are
 * disposed). Computed, they are float rounding that differs between backends and float orders, and AdamW
 * turns rounding into steps of about lr; zeroed before the global norm, so every path clips alike.
 * A non-finite entry stays non-finite (it is multiplied by 0), so a broken step is still caught.
 */
export function zeroLossFree(grads: Map<string, tf.Tensor>, dModel: number): Map<string, tf.Tensor> {
  for (const [name, g] of grads) {
    const range = lossFreeRange(name, dModel);
    if (!range) continue;
    const keep = new Float32Array(g.size).fill(1).fill(0, range[0], range[1]);
    grads.set(
      name,
      tf.tidy(() => tf.mul(g, tf.tensor(keep, g.shape))),
    );
    g.dispose();
  }
  return grads;
}
