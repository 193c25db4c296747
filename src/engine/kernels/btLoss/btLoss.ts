import * as tf from '@tensorflow/tfjs';
import type { PairGroup, PairGroups } from './pairGroups.ts';
import { fusedBtLoss, fusedBtLossGradient } from './webgpu.ts';

/**
 * Group-wise Bradley-Terry loss: L = (1/G) Σ_g mean over (i correct, j incorrect) of softplus(E_i − E_j),
 * G = groups having both labels; groups lacking either label carry no loss. Each group's pairs form
 * its own [P_g × Q_g] matrix, so memory follows the largest group, never (Σ n_g)². One kernel each way
 * (webgpu.ts, WebGPU only, where its names live), and the tfjs composition below: the reference it is
 * tested against (parity.ts) and the path elsewhere. The gradient is the closed form (no gather gradient
 * on the tape: that is an UnsortedSegmentSum, which the WASM backend lacks).
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
 * softplus(x) = log(1 + e^x) in the form that never overflows: log1p(e^−|x|) + max(x, 0).
 * Above 20, where torch returns x itself, the first term is below 2e-9, under float32 resolution there.
 */
export function softplus(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.add(tf.log1p(tf.exp(tf.neg(tf.abs(x)))), tf.relu(x)));
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

/** The loss by the kernel where the backend has it (its profile's fused.btLoss), else by the composition. */
export function btLoss(e: tf.Tensor1D, pairs: PairGroups, kernel: boolean): tf.Scalar {
  return kernel ? fusedBtLoss(e, pairs) : composedBtLoss(e, pairs);
}

/** dL/dE by the kernel where the backend has it, else by the composition. */
export function btLossGradient(e: tf.Tensor1D, pairs: PairGroups, kernel: boolean): tf.Tensor1D {
  return kernel ? fusedBtLossGradient(e, pairs) : composedBtLossGradient(e, pairs);
}
