import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile } from '../backend/profile.ts';
import { fusedBtLoss, fusedBtLossGradient } from '../kernels/btLoss/webgpu.ts';
import type { PairGroup, PairGroups } from '../kernels/btLoss/pairGroups.ts';
import { softplus } from './ops.ts';

export { type PairGroup, type PairGroups, pairGroups } from '../kernels/btLoss/pairGroups.ts';

/**
 * Group-wise Bradley-Terry loss: L = (1/G) Σ_g mean over (i correct, j incorrect) of softplus(E_i − E_j),
 * G = groups having both labels; groups lacking either label carry no loss. Each group's pairs form
 * its own [P_g × Q_g] matrix, so memory follows the largest group, never (Σ n_g)².
 */

/** The weight of each pair of `g`: the mean over its pairs, then over the G groups. */
const pairWeight = (g: PairGroup, groups: number) => 1 / (g.pos.length * g.neg.length * groups);

/** D_ij = E_pos[i] − E_neg[j], [P_g, Q_g]. */
function differences(e: tf.Tensor1D, g: PairGroup): tf.Tensor2D {
  const pos = tf.gather(e, tf.tensor1d(g.pos, 'int32'));
  const neg = tf.gather(e, tf.tensor1d(g.neg, 'int32'));
  return tf.sub(tf.reshape(pos, [-1, 1]), tf.reshape(neg, [1, -1])) as tf.Tensor2D;
}

function lossValue(e: tf.Tensor1D, pairs: PairGroups): tf.Scalar {
  const G = pairs.groups.length;
  if (G === 0) return tf.scalar(0);
  // One tidy per group: only one group's pair matrices are alive at a time.
  const parts = pairs.groups.map((g) => tf.tidy(() => tf.sum(tf.mul(softplus(differences(e, g)), pairWeight(g, G)))));
  const total = tf.addN(parts) as tf.Scalar;
  tf.dispose(parts);
  return total;
}

/**
 * The loss. Its gradient is the closed form below (no gather gradient on the tape: that is an
 * UnsortedSegmentSum, which the WASM backend lacks). Fused (WebGPU): one dispatch each way.
 */
export function btLoss(e: tf.Tensor1D, pairs: PairGroups, profile: BackendProfile = activeProfile()): tf.Scalar {
  return profile.fused.btLoss ? fusedBtLoss(e, pairs) : composedBtLoss(e, pairs);
}

/** The plain tfjs loss, one group at a time: the reference and the path elsewhere. */
export function composedBtLoss(e: tf.Tensor1D, pairs: PairGroups): tf.Scalar {
  const f = tf.customGrad(((x: tf.Tensor1D, save: tf.GradSaveFunc) => {
    save([x]);
    return {
      value: lossValue(x, pairs),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.mul(dy, composedBtLossGradient(saved[0] as tf.Tensor1D, pairs)),
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(e) as tf.Scalar;
}

/**
 * dL/dE in closed form: with S = w_g · σ(D) per group, a correct candidate gets its row sum of S and an
 * incorrect one minus its column sum; candidates of groups without both labels get 0.
 * Lets the micro-batched step backpropagate Σ_k stopgrad(dL/dE_k) · E_k chunk by chunk.
 */
export function btLossGradient(e: tf.Tensor1D, pairs: PairGroups, profile: BackendProfile = activeProfile()): tf.Tensor1D {
  return profile.fused.btLoss ? fusedBtLossGradient(e, pairs) : composedBtLossGradient(e, pairs);
}

/** The plain tfjs gradient: the reference and the path elsewhere. */
export function composedBtLossGradient(e: tf.Tensor1D, pairs: PairGroups): tf.Tensor1D {
  const G = pairs.groups.length;
  if (G === 0) return tf.zeros([pairs.n]);
  return tf.tidy(() => {
    const parts: tf.Tensor[] = [];
    // where[k]: 1 + the position of candidate k's value among the parts; 0 (a leading zero) when it has none.
    let placed = 0;
    const where = new Int32Array(pairs.n);
    for (const g of pairs.groups) {
      const [rows, cols] = tf.tidy(() => {
        const s = tf.mul(tf.sigmoid(differences(e, g)), pairWeight(g, G));
        return [tf.sum(s, 1), tf.neg(tf.sum(s, 0))];
      });
      parts.push(rows, cols);
      for (const i of g.pos) where[i] = placed++ + 1;
      for (const j of g.neg) where[j] = placed++ + 1;
    }
    return tf.gather(tf.concat([tf.zeros([1]), ...parts]), tf.tensor1d(where, 'int32')) as tf.Tensor1D;
  });
}
