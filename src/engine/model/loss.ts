import * as tf from '@tensorflow/tfjs';
import { softplus } from './ops.ts';

/**
 * Group-wise Bradley-Terry loss as one weighted sum over candidate pairs:
 * L = Σ_ij W_ij · softplus(E_i − E_j) with W_ij = 1 / (P_g · Q_g · G) when i is a correct and j an
 * incorrect candidate of the same group g (P_g, Q_g its counts), G = groups having both labels.
 * That is the mean over pairs within a group, then the mean over groups; groups lacking
 * either label get no weight at all.
 */
export interface PairWeights {
  /** Row-major N×N. */
  weights: Float32Array;
  n: number;
  /** Groups that have both labels (and so carry loss). */
  scoredGroups: number;
}

export function pairWeights(labels: ArrayLike<number>, groupOf: ArrayLike<number>): PairWeights {
  const n = labels.length;
  if (groupOf.length !== n) throw new Error(`labels (${n}) and groupOf (${groupOf.length}) differ in length`);
  const pos = new Map<number, number>();
  const neg = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const m = labels[i] ? pos : neg;
    m.set(groupOf[i], (m.get(groupOf[i]) ?? 0) + 1);
  }
  let scoredGroups = 0;
  for (const g of pos.keys()) if (neg.has(g)) scoredGroups++;
  const weights = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    if (!labels[i]) continue;
    const g = groupOf[i];
    const q = neg.get(g);
    if (!q) continue;
    const w = 1 / (pos.get(g)! * q * scoredGroups);
    for (let j = 0; j < n; j++) if (!labels[j] && groupOf[j] === g) weights[i * n + j] = w;
  }
  return { weights, n, scoredGroups };
}

/** Pairwise differences D_ij = E_i − E_j, [N, N]. */
function differences(e: tf.Tensor1D): tf.Tensor2D {
  return tf.sub(tf.reshape(e, [-1, 1]), tf.reshape(e, [1, -1])) as tf.Tensor2D;
}

export function btLoss(e: tf.Tensor1D, w: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => tf.sum(tf.mul(w, softplus(differences(e)))) as tf.Scalar);
}

/**
 * dL/dE in closed form: with S_ij = W_ij · σ(E_i − E_j), dL/dE_k = Σ_j S_kj − Σ_i S_ik.
 * Lets the micro-batched step backpropagate Σ_k stopgrad(dL/dE_k) · E_k chunk by chunk.
 */
export function btLossGradient(e: tf.Tensor1D, w: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => {
    const s = tf.mul(w, tf.sigmoid(differences(e)));
    return tf.sub(tf.sum(s, 1), tf.sum(s, 0)) as tf.Tensor1D;
  });
}
