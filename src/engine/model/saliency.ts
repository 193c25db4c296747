import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from './config.ts';
import { type ParamTensors, energies } from './transebm.ts';

/** One candidate's eval-mode energy and the attribution of it to each of its tokens. */
export interface TokenSaliency {
  energy: number;
  /** One per input id: Σ_d x0[t, d] · ∂E/∂x0[t, d]. Positive: the token raises the energy (counts against the answer). */
  scores: Float32Array;
}

/**
 * Gradient × input of one candidate's energy with respect to the encoder input x0 = emb[ids]·√d
 * (+ the learned position of each token when the model has one: x0 is what the first layer reads),
 * summed over d for each token. Eval mode (no dropout), on the padded reference forward, one candidate
 * at a time: no padding, and one input of maxLen tokens costs no more than one training step's forward
 * and backward on a single candidate. `ids` as the model reads them: CLS first, at most maxLen.
 */
export async function tokenSaliency(cfg: ModelConfig, params: ParamTensors, ids: ArrayLike<number>): Promise<TokenSaliency> {
  const T = ids.length;
  if (T < 1 || T > cfg.maxLen) throw new Error(`saliency needs 1 to ${cfg.maxLen} ids (got ${T})`);
  const kept: { x0?: tf.Tensor } = {};
  const [energy, scores] = tf.tidy(() => {
    const inputs = { ids: tf.tensor2d(Int32Array.from(ids), [1, T], 'int32'), lengths: tf.tensor1d([T], 'int32') };
    // E as a function of a shift added to x0: its gradient at 0 is ∂E/∂x0, from one forward and backward,
    // and the hook keeps x0 itself from that same forward.
    const shifted = (shift: tf.Tensor) =>
      tf.sum(
        energies(cfg, params, inputs, {
          packed: false,
          embeddingHook: (x) => {
            kept.x0 = tf.keep(x);
            return tf.add(x, shift);
          },
        }),
      );
    try {
      const { value, grad } = tf.valueAndGrad(shifted)(tf.zeros([1, T, cfg.dModel]));
      return [value, tf.reshape(tf.sum(tf.mul(kept.x0!, grad), -1), [T])];
    } finally {
      kept.x0?.dispose();
    }
  });
  try {
    const [e, s] = await Promise.all([energy.data(), scores.data()]);
    return { energy: e[0], scores: s as Float32Array };
  } finally {
    energy.dispose();
    scores.dispose();
  }
}
