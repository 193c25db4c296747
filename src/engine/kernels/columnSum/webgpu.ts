import type { KernelFamily } from '../register.ts';
import { COLUMN_SUM } from './columnSum.ts';
import { REDUCE_SUM, WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * The column sum on WebGPU: one dispatch (tfjs's sum over the leading axes transposes them last first:
 * two). One workgroup per column.
 */
const CODE = `
  ${REDUCE_SUM}
  fn main(index : i32) {
    let col = index / ${WORKGROUP};
    var acc = 0.0;
    if (col < uniforms.width) {
      for (var r = i32(localId.x); r < uniforms.rows; r += ${WORKGROUP}) { acc += X[r * uniforms.width + col]; }
    }
    let total = reduceSum(acc);
    if (localId.x == 0u && col < uniforms.width) { setOutputAtIndex(col, total); }
  }`;

export const COLUMN_SUM_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: COLUMN_SUM,
      kernelFunc: ({ inputs, backend }) => {
        const x = inputs.x!;
        const width = x.shape[x.shape.length - 1];
        const rows = x.shape.reduce((a, b) => a * b, 1) / width;
        const program = new WorkgroupProgram('column_sum', ['X'], [width], width, CODE, 'rows : i32, width : i32,');
        return runProgram(
          backend,
          program,
          [x],
          [
            { type: 'int32', data: [rows] },
            { type: 'int32', data: [width] },
          ],
        );
      },
    },
  ],
};
