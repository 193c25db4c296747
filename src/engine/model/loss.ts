import type * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { btLoss as btLossOp, btLossGradient as btLossGradientOp } from '../kernels/btLoss/btLoss.ts';
import type { PairGroups } from '../kernels/btLoss/pairGroups.ts';

export { type PairGroup, type PairGroups, pairGroups } from '../kernels/btLoss/pairGroups.ts';

/**
 * Group-wise Bradley-Terry loss (kernels/btLoss/btLoss.ts: L = (1/G) Σ_g mean over (i correct, j incorrect) of
 * softplus(E_i − E_j)), by the kernel the profile names, else by the composition. Its gradient is the
 * closed form. Fused (WebGPU): one dispatch each way.
 */
export function btLoss(e: tf.Tensor1D, pairs: PairGroups, profile: BackendProfile): tf.Scalar {
  return btLossOp(e, pairs, profile.fused.btLoss);
}

/**
 * dL/dE in closed form: with S = w_g · σ(D) per group, a correct candidate gets its row sum of S and an
 * incorrect one minus its column sum; candidates of groups without both labels get 0.
 * Lets the micro-batched step backpropagate Σ_k stopgrad(dL/dE_k) · E_k chunk by chunk.
 */
export function btLossGradient(e: tf.Tensor1D, pairs: PairGroups, profile: BackendProfile): tf.Tensor1D {
  return btLossGradientOp(e, pairs, profile.fused.btLoss);
}
