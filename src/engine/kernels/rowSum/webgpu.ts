import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * The gradient of a row gather (the embedding lookup) as a sum per table row in a fixed order: output
 * row r is Σ of dy's rows at the positions `order[starts[r]] … order[starts[r + 1] − 1]` (the positions
 * of the ids equal to r, ascending). tf.scatterND adds duplicate ids with atomics, in whatever order the
 * GPU runs them, so two runs of one step differ in the last bits; this does not, which makes a WebGPU
 * step repeatable to the bit (replayed steps are checked so). The order comes with the ids, from the host.
 */
export const ROW_SUM = 'EormRowSum';

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

/** Σ per table row of dy [positions, width] in the fixed order of `by`: [rows, width]. */
export function rowSum(dy: tf.Tensor2D, by: RowOrder, rows: number): tf.Tensor2D {
  return tf.engine().runKernel(ROW_SUM, { dy, order: by.order, starts: by.starts }, { rows }) as tf.Tensor2D;
}

const CODE = `
  fn main(index : i32) {
    if (index < uniforms.rows * uniforms.width) {
      let r = index / uniforms.width;
      let c = index % uniforms.width;
      var acc = 0.0;
      for (var k = STARTS[r]; k < STARTS[r + 1]; k++) { acc += DY[ORDER[k] * uniforms.width + c]; }
      setOutputAtIndex(index, acc);
    }
  }`;

export const ROW_SUM_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: ROW_SUM,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { dy, order, starts } = inputs as Record<string, tf.TensorInfo>;
        const { rows } = attrs as unknown as { rows: number };
        const width = dy.shape[1];
        const program = new WorkgroupProgram('row_sum', ['DY', 'ORDER', 'STARTS'], [rows, width], Math.ceil((rows * width) / WORKGROUP), CODE, 'rows : i32, width : i32,');
        return runProgram(backend, program, [dy, order, starts], [
          { type: 'int32', data: [rows] },
          { type: 'int32', data: [width] },
        ]);
      },
    },
  ],
};
