import * as tf from '@tensorflow/tfjs';
import type { RowOrder } from '../rowSum/rowSum.ts';
import { rowSum } from '../rowSum/webgpu.ts';
import { hostGatherRows } from './host.ts';

/** tf.gather(table, ids) along axis 0: with `hostKernel` (the profile's hostKernels) one row copy per id (host.ts), else tf.gather, the reference. */
export function gatherTableRows(table: tf.Tensor2D, ids: tf.Tensor, hostKernel: boolean): tf.Tensor {
  return hostKernel ? hostGatherRows(table, ids) : tf.gather(table, ids);
}

/**
 * Rows of a table (the embedding lookup, or picking rows of activations) whose gradient is a scatter-add
 * into the table. tf.gather's own gradient goes
 * through UnsortedSegmentSum, which the CPU backend runs as one pass per vocabulary row (50257
 * passes: minutes per step); ScatterNd sums duplicate ids in one pass on every backend. With `byRow`
 * (the ids' positions grouped by row, a WebGPU step's input; given where the fused kernel is registered), the
 * gradient is a sum per row in a fixed order instead (rowSum/webgpu.ts): ScatterNd's atomics add in any order.
 */
export function gatherRows(table: tf.Tensor2D, ids: tf.Tensor, ordered: RowOrder | undefined, hostKernel: boolean): tf.Tensor {
  const [rows, width] = table.shape;
  const lookup = tf.customGrad(((t: tf.Tensor, idx: tf.Tensor, save: tf.GradSaveFunc) => {
    // Saving the ids keeps them alive for the backward pass, whoever created them.
    save([idx]);
    return {
      value: gatherTableRows(t as tf.Tensor2D, idx, hostKernel),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [
        ordered
          ? rowSum(tf.reshape(dy, [-1, width]) as tf.Tensor2D, ordered, rows)
          : tf.scatterND(tf.reshape(saved[0], [-1, 1]), tf.reshape(dy, [-1, width]), [rows, width]),
        // The ids are integers: no gradient flows to them, but the tape wants a float32 tensor.
        tf.zeros(saved[0].shape),
      ],
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return lookup(table, ids);
}
