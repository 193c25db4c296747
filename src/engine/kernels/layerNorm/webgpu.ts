import * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import type { KernelFamily } from '../register.ts';
import { GRAD_WEIGHT_BIAS, GRAD_X, LAYER_NORM } from './layerNorm.ts';
import { runInPlace } from '../webgpu/inPlace.ts';
import { REDUCE_SUM, WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * LayerNorm over the last axis on WebGPU: one dispatch forward (the composition takes ~9) and two
 * backward (dx with the row statistics, then dweight and dbias together from them; the composition's
 * gradient takes ~20). One workgroup per row forward and for dx; dweight and dbias a workgroup per block
 * of columns, its lanes over the rows.
 */
const UNIFORMS = 'rows : i32, width : i32, eps : f32,';

/** WGSL: mean and 1/√(var + eps) of row `row` of X, computed by the whole workgroup (two passes, as the composition). */
const ROW_STATS = `
  ${REDUCE_SUM}
  fn rowStats(row : i32) -> vec2<f32> {
    let d = uniforms.width;
    let base = row * d;
    let inside = row < uniforms.rows;
    var s = 0.0;
    if (inside) { for (var j = i32(localId.x); j < d; j += ${WORKGROUP}) { s += X[base + j]; } }
    let mean = reduceSum(s) / f32(d);
    var q = 0.0;
    if (inside) { for (var j = i32(localId.x); j < d; j += ${WORKGROUP}) { let c = X[base + j] - mean; q += c * c; } }
    return vec2<f32>(mean, inverseSqrt(reduceSum(q) / f32(d) + uniforms.eps));
  }`;

const FORWARD = `
  ${ROW_STATS}
  fn main(index : i32) {
    let row = index / ${WORKGROUP};
    let stats = rowStats(row);
    let d = uniforms.width;
    if (row < uniforms.rows) {
      for (var j = i32(localId.x); j < d; j += ${WORKGROUP}) {
        setOutputAtIndex(row * d + j, (X[row * d + j] - stats.x) * stats.y * W[j] + B[j]);
      }
    }
  }`;

/** dx = rstd · (g − mean(g) − x̂ · mean(g · x̂)), g = dy · weight; and the row's mean and rstd into STATS [rows, 2] (for dweight). */
const GRAD_X_CODE = `
  ${ROW_STATS}
  fn main(index : i32) {
    let row = index / ${WORKGROUP};
    let stats = rowStats(row);
    let d = uniforms.width;
    let inside = row < uniforms.rows;
    if (inside && localId.x == 0u) {
      STATS[2 * row] = stats.x;
      STATS[2 * row + 1] = stats.y;
    }
    var sumG = 0.0;
    var sumGX = 0.0;
    if (inside) {
      for (var j = i32(localId.x); j < d; j += ${WORKGROUP}) {
        let g = DY[row * d + j] * W[j];
        sumG += g;
        sumGX += g * (X[row * d + j] - stats.x) * stats.y;
      }
    }
    let meanG = reduceSum(sumG) / f32(d);
    let meanGX = reduceSum(sumGX) / f32(d);
    if (inside) {
      for (var j = i32(localId.x); j < d; j += ${WORKGROUP}) {
        let xhat = (X[row * d + j] - stats.x) * stats.y;
        DX[row * d + j] = stats.y * (DY[row * d + j] * W[j] - meanG - xhat * meanGX);
      }
    }
  }`;

/** dweight and dbias: a workgroup is COLUMNS adjacent columns × LANES_PER_COLUMN lanes over the rows. */
const COLUMNS = 16;
const ROW_LANES = WORKGROUP / COLUMNS;

/**
 * dweight[j] = Σ_rows dy · x̂ and dbias[j] = Σ_rows dy, x̂ from the statistics dx wrote: each lane sums
 * every ROW_LANES-th row of its column (adjacent lanes read adjacent columns), then the lanes of a
 * column add up in a fixed order. Written to two outputs (inPlace.ts), where a tfjs program has one.
 */
const GRAD_WEIGHT_BIAS_CODE = `
  var<workgroup> partW : array<f32, ${WORKGROUP}>;
  var<workgroup> partB : array<f32, ${WORKGROUP}>;
  fn main(index : i32) {
    let lane = i32(localId.x);
    let col = (index / ${WORKGROUP}) * ${COLUMNS} + lane % ${COLUMNS};
    let d = uniforms.width;
    var acc = 0.0;
    var accB = 0.0;
    if (col < d) {
      for (var r = lane / ${COLUMNS}; r < uniforms.rows; r += ${ROW_LANES}) {
        let g = DY[r * d + col];
        acc += g * (X[r * d + col] - STATS[2 * r]) * STATS[2 * r + 1];
        accB += g;
      }
    }
    partW[lane] = acc;
    partB[lane] = accB;
    workgroupBarrier();
    if (lane < ${COLUMNS} && col < d) {
      var w = 0.0;
      var b = 0.0;
      for (var k = 0; k < ${ROW_LANES}; k++) {
        w += partW[lane + ${COLUMNS} * k];
        b += partB[lane + ${COLUMNS} * k];
      }
      DW[col] = w;
      DB[col] = b;
    }
  }`;

function uniforms(x: tf.TensorInfo, eps: number) {
  const width = x.shape[x.shape.length - 1];
  const rows = x.shape.reduce((a, b) => a * b, 1) / width;
  return {
    rows,
    width,
    data: [
      { type: 'int32' as const, data: [rows] },
      { type: 'int32' as const, data: [width] },
      { type: 'float32' as const, data: [eps] },
    ],
  };
}

type Run = (inputs: Record<string, tf.TensorInfo>, backend: unknown, eps: number) => tf.TensorInfo;
const withEps = (kernelName: string, run: Run) => ({
  kernelName,
  kernelFunc: ({ inputs, backend, attrs }: Parameters<tf.KernelFunc>[0]) =>
    run(inputs as Record<string, tf.TensorInfo>, backend, (attrs as { eps?: number }).eps ?? 0),
});

/** The forward, dx, and dweight with dbias (fusedLayerNorm's custom gradient runs the last two). */
export const LAYER_NORM_WEBGPU: KernelFamily = {
  kernels: [
    withEps(LAYER_NORM, ({ x, weight, bias }, backend, eps) => {
      const u = uniforms(x, eps);
      return runProgram(backend, new WorkgroupProgram('layer_norm', ['X', 'W', 'B'], x.shape, u.rows, FORWARD, UNIFORMS), [x, weight, bias], u.data);
    }),
    {
      kernelName: GRAD_X,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { dy, x, weight } = inputs as Record<string, tf.TensorInfo>;
        const u = uniforms(x, (attrs as { eps: number }).eps);
        const b = backend as unknown as WebGPUBackend;
        const dx = b.makeTensorInfo(x.shape, 'float32');
        const stats = b.makeTensorInfo([u.rows, 2], 'float32');
        const bindings = [
          { name: 'DY', t: dy },
          { name: 'X', t: x },
          { name: 'W', t: weight },
          { name: 'DX', t: dx, write: true },
          { name: 'STATS', t: stats, write: true },
        ];
        runInPlace(b, 'eorm_layer_norm_dx', GRAD_X_CODE, bindings, UNIFORMS, u.data, u.rows, WORKGROUP);
        return [dx, stats];
      },
    },
    {
      kernelName: GRAD_WEIGHT_BIAS,
      kernelFunc: ({ inputs, backend }) => {
        const { dy, x, stats } = inputs as Record<string, tf.TensorInfo>;
        const u = uniforms(x, 0);
        const b = backend as unknown as WebGPUBackend;
        const [dw, db] = [0, 1].map(() => b.makeTensorInfo([u.width], 'float32'));
        const bindings = [
          { name: 'DY', t: dy },
          { name: 'X', t: x },
          { name: 'STATS', t: stats },
          { name: 'DW', t: dw, write: true },
          { name: 'DB', t: db, write: true },
        ];
        runInPlace(b, 'eorm_layer_norm_dwb', GRAD_WEIGHT_BIAS_CODE, bindings, UNIFORMS, u.data, Math.ceil(u.width / COLUMNS));
        return [dw, db];
      },
    },
  ],
};
