import * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import type { KernelFamily } from '../register.ts';
import { runInPlace } from './inPlace.ts';
import { REDUCE_SUM, WORKGROUP, WorkgroupProgram, runProgram } from './program.ts';

/**
 * LayerNorm over the last axis on WebGPU: one dispatch forward (the composition takes ~9) and two
 * backward (dx, then dweight and dbias together; the composition's gradient takes ~20). One workgroup
 * per row; the row statistics are recomputed where needed instead of saved, as a program has a single output.
 */
export const LAYER_NORM = 'EormLayerNorm';
const GRAD_X = 'EormLayerNormGradX';
const GRAD_WEIGHT_BIAS = 'EormLayerNormGradWeightBias';

/** y = (x − mean) / √(var + eps) · weight + bias, over the last axis (biased variance, as PyTorch). */
export function fusedLayerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps: number): tf.Tensor {
  // customGrad: its gradient function returns every input's gradient from one call, so dweight and
  // dbias can come from one two-output dispatch (a registered gradient computes each input's apart).
  const f = tf.customGrad(((x: tf.Tensor, w: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
    save([x, w]);
    return {
      value: tf.engine().runKernel(LAYER_NORM, { x, weight: w, bias: b }, { eps }) as tf.Tensor,
      gradFunc: (dy: tf.Tensor, [xs, ws]: tf.Tensor[]) => {
        const [dw, db] = tf.engine().runKernel(GRAD_WEIGHT_BIAS, { dy, x: xs }, { eps }) as tf.Tensor[];
        return [tf.engine().runKernel(GRAD_X, { dy, x: xs, weight: ws }, { eps }) as tf.Tensor, dw, db];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(x, weight, bias);
}

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

/** dx = rstd · (g − mean(g) − x̂ · mean(g · x̂)), g = dy · weight. */
const GRAD_X_CODE = `
  ${ROW_STATS}
  fn main(index : i32) {
    let row = index / ${WORKGROUP};
    let stats = rowStats(row);
    let d = uniforms.width;
    let inside = row < uniforms.rows;
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
        setOutputAtIndex(row * d + j, stats.y * (DY[row * d + j] * W[j] - meanG - xhat * meanGX));
      }
    }
  }`;

/** Columns of dweight per workgroup: each lane's row statistics serve that many columns. */
const COLUMNS = 16;

/**
 * dweight[j] = Σ_rows dy · x̂ and dbias[j] = Σ_rows dy: a workgroup per block of COLUMNS columns, lanes
 * over rows; a lane recomputes its rows' statistics (not saved by the forward) and uses them for the
 * whole block. Written to two outputs (inPlace.ts), where a tfjs program has one.
 */
const GRAD_WEIGHT_BIAS_CODE = `
  ${REDUCE_SUM}
  fn main(index : i32) {
    let first = (index / ${WORKGROUP}) * ${COLUMNS};
    let d = uniforms.width;
    var acc : array<f32, ${COLUMNS}>;
    var accB : array<f32, ${COLUMNS}>;
    for (var r = i32(localId.x); r < uniforms.rows; r += ${WORKGROUP}) {
      let base = r * d;
      var s = 0.0;
      for (var j = 0; j < d; j++) { s += X[base + j]; }
      let mean = s / f32(d);
      var q = 0.0;
      for (var j = 0; j < d; j++) { let c = X[base + j] - mean; q += c * c; }
      let rstd = inverseSqrt(q / f32(d) + uniforms.eps);
      for (var c = 0; c < ${COLUMNS}; c++) {
        let col = first + c;
        if (col < d) {
          acc[c] += DY[base + col] * (X[base + col] - mean) * rstd;
          accB[c] += DY[base + col];
        }
      }
    }
    for (var c = 0; c < ${COLUMNS}; c++) {
      let total = reduceSum(acc[c]);
      let totalB = reduceSum(accB[c]);
      if (localId.x == 0u && first + c < d) {
        DW[first + c] = total;
        DB[first + c] = totalB;
      }
    }
  }`;

function uniforms(x: tf.TensorInfo, eps: number) {
  const width = x.shape[x.shape.length - 1];
  const rows = x.shape.reduce((a, b) => a * b, 1) / width;
  return { rows, width, data: [{ type: 'int32' as const, data: [rows] }, { type: 'int32' as const, data: [width] }, { type: 'float32' as const, data: [eps] }] };
}

type Run = (inputs: Record<string, tf.TensorInfo>, backend: unknown, eps: number) => tf.TensorInfo;
const withEps = (kernelName: string, run: Run) => ({
  kernelName,
  kernelFunc: ({ inputs, backend, attrs }: Parameters<tf.KernelFunc>[0]) => run(inputs as Record<string, tf.TensorInfo>, backend, (attrs as { eps?: number }).eps ?? 0),
});

/** The forward, dx, and dweight with dbias (fusedLayerNorm's custom gradient runs the last two). */
export const LAYER_NORM_WEBGPU: KernelFamily = {
  kernels: [
    withEps(LAYER_NORM, ({ x, weight, bias }, backend, eps) => {
      const u = uniforms(x, eps);
      return runProgram(backend, new WorkgroupProgram('layer_norm', ['X', 'W', 'B'], x.shape, u.rows, FORWARD, UNIFORMS), [x, weight, bias], u.data);
    }),
    withEps(GRAD_X, ({ dy, x, weight }, backend, eps) => {
      const u = uniforms(x, eps);
      return runProgram(backend, new WorkgroupProgram('layer_norm_dx', ['DY', 'X', 'W'], x.shape, u.rows, GRAD_X_CODE, UNIFORMS), [dy, x, weight], u.data);
    }),
    {
      kernelName: GRAD_WEIGHT_BIAS,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { dy, x } = inputs as Record<string, tf.TensorInfo>;
        const u = uniforms(x, (attrs as { eps: number }).eps);
        const b = backend as unknown as WebGPUBackend;
        const [dw, db] = [0, 1].map(() => b.makeTensorInfo([u.width], 'float32'));
        const bindings = [{ name: 'DY', t: dy }, { name: 'X', t: x }, { name: 'DW', t: dw, write: true }, { name: 'DB', t: db, write: true }];
        runInPlace(b, 'eorm_layer_norm_dwb', GRAD_WEIGHT_BIAS_CODE, bindings, UNIFORMS, u.data, Math.ceil(u.width / COLUMNS));
        return [dw, db];
      },
    },
  ],
};
