import * as tf from '@tensorflow/tfjs';
import { rowOrderValues } from './rowSum.ts';
import { ROW_SUM } from './webgpu.ts';
import { gatherRows } from '../rowGather/rowGather.ts';
import { createRng } from '../../shared/rng.ts';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from '../parity.ts';

/**
 * The row gather with its gradient summed per row in a fixed order (rowSum.ts) against the same gather
 * with tf.scatterND's gradient: value and dtable for 600 ids (many repeated) into a [50, 24] table.
 * Null where the backend has no fused kernel.
 */
export async function rowSumParity(): Promise<ParityErrors | null> {
  if (!hasKernel(ROW_SUM)) return null;
  const rng = createRng(9);
  const ids = Int32Array.from({ length: 600 }, () => Math.floor(rng.next() * rng.next() * 50));
  const { order, starts } = rowOrderValues(ids, 50);
  const table = randomTensor([50, 24], 4);
  const idsT = tf.tensor2d(ids, [20, 30], 'int32');
  const byRow = { order: tf.tensor1d(order, 'int32'), starts: tf.tensor1d(starts, 'int32') };
  try {
    return await compareOps(
      (t) => gatherRows(t as tf.Tensor2D, idsT, byRow, false),
      (t) => gatherRows(t as tf.Tensor2D, idsT, undefined, false),
      { table },
    );
  } finally {
    tf.dispose([table, idsT, byRow.order, byRow.starts]);
  }
}
