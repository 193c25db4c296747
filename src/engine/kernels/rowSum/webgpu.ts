import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';
import type { RowOrder } from './rowSum.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * The gradient of a row gather (the embedding lookup) as a sum per table row in a fixed order: output
 * row r is Σ of dy's rows at the positions `order[starts[r]] … order[starts[r + 1] − 1]` (the positions
 * of the ids equal to r, ascending). tf.scatterND adds duplicate ids with atomics, in whatever order the
 * GPU runs them, so two runs of one step differ in the last bits; this does not, which makes a WebGPU
 * step repeatable to the bit (replayed steps are checked so). The order comes with the ids, from the host.
 */
export const ROW_SUM = 'EormRowSum';

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
        const program = new WorkgroupProgram(
          'row_sum',
          ['DY', 'ORDER', 'STARTS'],
          [rows, width],
          Math.ceil((rows * width) / WORKGROUP),
          CODE,
          'rows : i32, width : i32,',
        );
        return runProgram(
          backend,
          program,
          [dy, order, starts],
          [
            { type: 'int32', data: [rows] },
            { type: 'int32', data: [width] },
          ],
        );
      },
    },
  ],
};
