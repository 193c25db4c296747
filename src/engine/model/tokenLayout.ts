import type * as tf from '@tensorflow/tfjs';
import type { DropoutKeys, DropoutSite } from './dropout.ts';

/**
 * How a forward lays out the batch's tokens, and attention on that layout: all that the padded
 * reference (transebm.ts, [B, T, d] with padding keys masked) and the packed forward (packedForward.ts,
 * the real tokens only, [N, d]) do differently. The rest of a layer works row by row, the same on both.
 */
export interface TokenLayout {
  /** The rows of `table` for every token (the embedding lookup). */
  embed(table: tf.Tensor2D): tf.Tensor;
  /** Each token's row of the learned positions `table`. */
  positions(table: tf.Tensor2D): tf.Tensor;
  /** Activations in the padded [B, T, d] layout, for the parity tests' intermediates. */
  padded(x: tf.Tensor): tf.Tensor;
  /** The CLS rows of `x`: what the last layer computes. */
  cls(x: tf.Tensor): tf.Tensor;
  /**
   * Multi-head self-attention of `h` = LN1(x) up to the out-projection (PyTorch's in_proj weight
   * [3d, d] and bias): the heads' context side by side, for the CLS queries only with `clsOnly`.
   */
  attention(h: tf.Tensor, wIn: tf.Tensor, bIn: tf.Tensor, heads: number, clsOnly: boolean, drop?: DropoutSite): tf.Tensor;
  /**
   * Dropout keys of the rows of a layer's activations (all tokens, or the CLS rows with `clsOnly`):
   * chunk-local candidate and token, a CLS row its candidate's token 0; padded rows are keyed too.
   */
  dropoutRows(clsOnly: boolean): DropoutKeys;
}
