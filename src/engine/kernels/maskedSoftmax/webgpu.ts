import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';
import { REDUCE_SUM, type Uniform, WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * Attention's masked, scaled softmax on WebGPU: softmax(scores · scale + mask) over the last axis in one
 * dispatch (the composition: scale, mask and softmax, 3) and its gradient in one (the composition's:
 * 5). scores is [B, …, T] and mask [B, 1, …, 1, T] (0 for a key, a large negative number for padding);
 * one workgroup per row, as tfjs's own softmax, with the same max-then-sum order.
 */
export const MASKED_SOFTMAX = 'EormMaskedSoftmax';
const MASKED_SOFTMAX_GRAD = 'EormMaskedSoftmaxGrad';

export function fusedMaskedSoftmax(scores: tf.Tensor, scale: number, mask: tf.Tensor): tf.Tensor {
  return tf.engine().runKernel(MASKED_SOFTMAX, { scores, mask }, { scale }) as tf.Tensor;
}

const UNIFORMS = 'rows : i32, cols : i32, rowsPerBatch : i32, scale : f32,';

const FORWARD = `
  ${REDUCE_SUM}
  fn logit(row : i32, col : i32) -> f32 {
    return S[row * uniforms.cols + col] * uniforms.scale + M[(row / uniforms.rowsPerBatch) * uniforms.cols + col];
  }
  fn main(index : i32) {
    let row = index / ${WORKGROUP};
    let cols = uniforms.cols;
    let inside = row < uniforms.rows;
    var best = -3.402823e+38f;
    if (inside) { for (var j = i32(localId.x); j < cols; j += ${WORKGROUP}) { best = max(best, logit(row, j)); } }
    let rowMax = reduceMax(best);
    var sum = 0.0;
    if (inside) { for (var j = i32(localId.x); j < cols; j += ${WORKGROUP}) { sum += exp(logit(row, j) - rowMax); } }
    let rowSum = reduceSum(sum);
    if (inside) {
      for (var j = i32(localId.x); j < cols; j += ${WORKGROUP}) { setOutputAtIndex(row * cols + j, exp(logit(row, j) - rowMax) / rowSum); }
    }
  }`;

/** dscores = scale · (dy·y − Σ(dy·y)·y), the composition's order. */
const BACKWARD = `
  ${REDUCE_SUM}
  fn main(index : i32) {
    let row = index / ${WORKGROUP};
    let cols = uniforms.cols;
    let inside = row < uniforms.rows;
    var sum = 0.0;
    if (inside) { for (var j = i32(localId.x); j < cols; j += ${WORKGROUP}) { sum += DY[row * cols + j] * Y[row * cols + j]; } }
    let rowSum = reduceSum(sum);
    if (inside) {
      for (var j = i32(localId.x); j < cols; j += ${WORKGROUP}) {
        let i = row * cols + j;
        setOutputAtIndex(i, (DY[i] * Y[i] - rowSum * Y[i]) * uniforms.scale);
      }
    }
  }`;

function uniforms(scores: tf.TensorInfo, scale: number): { rows: number; data: Uniform[] } {
  const cols = scores.shape[scores.shape.length - 1];
  const rows = scores.shape.reduce((a, b) => a * b, 1) / cols;
  const ints: Uniform[] = [rows, cols, rows / scores.shape[0]].map((v) => ({ type: 'int32', data: [v] }));
  return { rows, data: [...ints, { type: 'float32', data: [scale] }] };
}

const scaleOf = (attrs: unknown) => (attrs as { scale: number }).scale;

/** The softmax, its gradient kernel, and the softmax's registered gradient. */
export const MASKED_SOFTMAX_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: MASKED_SOFTMAX,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { scores, mask } = inputs as Record<string, tf.TensorInfo>;
        const u = uniforms(scores, scaleOf(attrs));
        return runProgram(backend, new WorkgroupProgram('masked_softmax', ['S', 'M'], scores.shape, u.rows, FORWARD, UNIFORMS), [scores, mask], u.data);
      },
    },
    {
      kernelName: MASKED_SOFTMAX_GRAD,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { dy, y } = inputs as Record<string, tf.TensorInfo>;
        const u = uniforms(y, scaleOf(attrs));
        return runProgram(backend, new WorkgroupProgram('masked_softmax_grad', ['DY', 'Y'], y.shape, u.rows, BACKWARD, UNIFORMS), [dy, y], u.data);
      },
    },
  ],
  gradients: [
    {
      kernelName: MASKED_SOFTMAX,
      inputsToSave: ['mask'],
      outputsToSave: [true],
      gradFunc: (dy, [mask, y], attrs) => ({
        scores: () => tf.engine().runKernel(MASKED_SOFTMAX_GRAD, { dy: dy as tf.Tensor, y }, attrs) as tf.Tensor,
        // The mask comes from the lengths: nothing upstream of it is trained.
        mask: () => tf.zerosLike(mask),
      }),
    },
  ],
};
