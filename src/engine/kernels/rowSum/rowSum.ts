import type * as tf from '@tensorflow/tfjs';

/**
 * The backend-neutral half of the row sum (webgpu.ts has the kernel): which positions of a gather's ids
 * hold each table row, computed on the host and handed to the step with the ids.
 */

/** Which positions of a gather's ids hold each table row: positions sorted by id, and where each row's run starts. */
export interface RowOrder {
  order: tf.Tensor1D;
  starts: tf.Tensor1D;
}

/** order and starts of `ids` for a table of `rows` rows (a counting sort). */
export function rowOrderValues(ids: ArrayLike<number>, rows: number): { order: Int32Array; starts: Int32Array } {
  const starts = new Int32Array(rows + 1);
  for (let i = 0; i < ids.length; i++) starts[ids[i] + 1]++;
  for (let r = 0; r < rows; r++) starts[r + 1] += starts[r];
  const next = starts.slice(0, rows);
  const order = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) order[next[ids[i]]++] = i;
  return { order, starts };
}
