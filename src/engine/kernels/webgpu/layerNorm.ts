import * as tf from '@tensorflow/tfjs';
import { columnSum, registerWebGpuColumnSum } from './columnSum.ts';
import { REDUCE_SUM, WORKGROUP, WorkgroupProgram, runProgram } from './program.ts';

/**
 * LayerNorm over the last axis on WebGPU: one dispatch forward (the composition takes ~9) and three
 * backward (dx, dweight, dbias; the composition's gradient takes ~20). One workgroup per row; the
 * row statistics are recomputed where needed instead of saved, as a program has a single output.
 */
export const LAYER_NORM = 'EormLayerNorm';
const GRAD_X = 'EormLayerNormGradX';
const GRAD_WEIGHT = 'EormLayerNormGradWeight';

/** y = (x − mean) / √(var + eps) · weight + bias, over the last axis (biased variance, as PyTorch). */
export function fusedLayerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps: number): tf.Tensor {
  return tf.engine().runKernel(LAYER_NORM, { x, weight, bias }, { eps }) as tf.Tensor;
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
 * dweight[j] = Σ_rows dy · x̂: a workgroup per block of COLUMNS columns, lanes over rows; a lane
 * recomputes its rows' statistics (no second output to keep them in) and uses them for the whole block.
 */
const GRAD_WEIGHT_CODE = `
  ${REDUCE_SUM}
  fn main(index : i32) {
    let first = (index / ${WORKGROUP}) * ${COLUMNS};
    let d = uniforms.width;
    var acc : array<f32, ${COLUMNS}>;
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
        if (col < d) { acc[c] += DY[base + col] * (X[base + col] - mean) * rstd; }
      }
    }
    for (var c = 0; c < ${COLUMNS}; c++) {
      let total = reduceSum(acc[c]);
      if (localId.x == 0u && first + c < d) { setOutputAtIndex(first + c, total); }
    }
  }`;

function uniforms(x: tf.TensorInfo, eps: number) {
  const width = x.shape[x.shape.length - 1];
  const rows = x.shape.reduce((a, b) => a * b, 1) / width;
  return { rows, width, data: [{ type: 'int32' as const, data: [rows] }, { type: 'int32' as const, data: [width] }, { type: 'float32' as const, data: [eps] }] };
}

let registered = false;

/** Registers the kernels and the gradient for the WebGPU backend (the worker calls this once WebGPU runs). */
export function registerWebGpuLayerNorm(): void {
  if (registered) return;
  registered = true;
  registerWebGpuColumnSum();
  const kernel = (kernelName: string, run: (inputs: Record<string, tf.TensorInfo>, backend: unknown, eps: number) => tf.TensorInfo) =>
    tf.registerKernel({
      kernelName,
      backendName: 'webgpu',
      kernelFunc: ({ inputs, backend, attrs }) => run(inputs as Record<string, tf.TensorInfo>, backend, (attrs as { eps?: number }).eps ?? 0),
    });
  kernel(LAYER_NORM, ({ x, weight, bias }, backend, eps) => {
    const u = uniforms(x, eps);
    return runProgram(backend, new WorkgroupProgram('layer_norm', ['X', 'W', 'B'], x.shape, u.rows, FORWARD, UNIFORMS), [x, weight, bias], u.data);
  });
  kernel(GRAD_X, ({ dy, x, weight }, backend, eps) => {
    const u = uniforms(x, eps);
    return runProgram(backend, new WorkgroupProgram('layer_norm_dx', ['DY', 'X', 'W'], x.shape, u.rows, GRAD_X_CODE, UNIFORMS), [dy, x, weight], u.data);
  });
  kernel(GRAD_WEIGHT, ({ dy, x }, backend, eps) => {
    const u = uniforms(x, eps);
    const program = new WorkgroupProgram('layer_norm_dw', ['DY', 'X'], [u.width], Math.ceil(u.width / COLUMNS), GRAD_WEIGHT_CODE, UNIFORMS);
    return runProgram(backend, program, [dy, x], u.data);
  });
  tf.registerGradient({
    kernelName: LAYER_NORM,
    inputsToSave: ['x', 'weight'],
    gradFunc: (dy, saved, attrs) => {
      const [x, weight] = saved;
      const run = (name: string, inputs: tf.NamedTensorMap) => () => tf.engine().runKernel(name, inputs, attrs) as tf.Tensor;
      return {
        x: run(GRAD_X, { dy: dy as tf.Tensor, x, weight }),
        weight: run(GRAD_WEIGHT, { dy: dy as tf.Tensor, x }),
        bias: () => columnSum(dy as tf.Tensor),
      };
    },
  });
}
