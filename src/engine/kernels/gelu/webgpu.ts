import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';
import { GELU, GELU_GRAD, GELU_GRADIENT } from './gelu.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * Exact (erf) GELU on WebGPU: one dispatch forward and one backward, where the composition takes 5 and
 * about 8. erf is the Abramowitz-Stegun form tfjs-backend-webgpu's Erf uses, so the values match the
 * composition run on the same backend; the arithmetic follows the composition's order.
 */
const ERF = `
  fn erf(a : f32) -> f32 {
    let t = 1.0 / (1.0 + ${tf.backend_util.ERF_P} * abs(a));
    return sign(a) * (1.0 - (((((${tf.backend_util.ERF_A5} * t + ${tf.backend_util.ERF_A4}) * t) + ${tf.backend_util.ERF_A3}) * t + ${tf.backend_util.ERF_A2}) * t + ${tf.backend_util.ERF_A1}) * t * exp(-a * a));
  }`;

/** y = (x · 0.5) · (1 + erf(x / √2)). */
const FORWARD = `
  ${ERF}
  fn main(index : i32) {
    if (index < uniforms.n) {
      let x = X[index];
      setOutputAtIndex(index, (x * 0.5) * (1.0 + erf(x * ${Math.SQRT1_2})));
    }
  }`;

/** dx = dy · (1 + erf(u)) · 0.5 + dy · (x · 0.5) · 2/√π · e^(−u²) · (1/√2), u = x/√2: the composition's chain rule. */
const BACKWARD = `
  ${ERF}
  fn main(index : i32) {
    if (index < uniforms.n) {
      let x = X[index];
      let dy = DY[index];
      let u = x * ${Math.SQRT1_2};
      let du = (dy * (x * 0.5)) * (${2 / Math.sqrt(Math.PI)} * exp(-(u * u)));
      setOutputAtIndex(index, (dy * (1.0 + erf(u))) * 0.5 + du * ${Math.SQRT1_2});
    }
  }`;

function elementwise(backend: unknown, key: string, names: string[], code: string, inputs: tf.TensorInfo[]): tf.TensorInfo {
  const n = inputs[0].shape.reduce((a, b) => a * b, 1);
  const program = new WorkgroupProgram(key, names, inputs[0].shape, Math.ceil(n / WORKGROUP), code, 'n : i32,');
  return runProgram(backend, program, inputs, [{ type: 'int32', data: [n] }]);
}

/** The kernels and the gradient. */
export const GELU_WEBGPU: KernelFamily = {
  kernels: [
    { kernelName: GELU, kernelFunc: ({ inputs, backend }) => elementwise(backend, 'gelu', ['X'], FORWARD, [inputs.x!]) },
    { kernelName: GELU_GRAD, kernelFunc: ({ inputs, backend }) => elementwise(backend, 'gelu_grad', ['DY', 'X'], BACKWARD, [inputs.dy!, inputs.x!]) },
  ],
  gradients: [GELU_GRADIENT],
};
