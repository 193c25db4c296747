import * as tf from '@tensorflow/tfjs';
import { WORKGROUP, WorkgroupProgram, runProgram } from './program.ts';

/**
 * Dropout on WebGPU in one dispatch each way, where tf.dropout takes four forward (add, floor, div,
 * mul) and one backward. It takes the uniform draws `u` that tf.dropout would draw for the same seed
 * (tf.randomUniform, generated on the CPU either way), so the mask is the composition's bit for bit:
 * y = x · (floor(u + keep) / keep). The gradient is the same kernel applied to dy.
 */
export const DROPOUT = 'EormDropout';

export function fusedDropout(x: tf.Tensor, u: tf.Tensor, rate: number): tf.Tensor {
  return tf.engine().runKernel(DROPOUT, { x, u }, { rate }) as tf.Tensor;
}

/** The composition's order: floor(u + keep), divided by keep, times x. */
const MASK = `
  fn main(index : i32) {
    if (index < uniforms.n) {
      setOutputAtIndex(index, X[index] * (floor(U[index] + uniforms.keep) / uniforms.keep));
    }
  }`;

let registered = false;

/** Registers the kernel and its gradient for the WebGPU backend (the worker calls this once WebGPU runs). */
export function registerWebGpuDropout(): void {
  if (registered) return;
  registered = true;
  tf.registerKernel({
    kernelName: DROPOUT,
    backendName: 'webgpu',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x, u } = inputs as Record<string, tf.TensorInfo>;
      const n = x.shape.reduce((a, b) => a * b, 1);
      const program = new WorkgroupProgram('dropout', ['X', 'U'], x.shape, Math.ceil(n / WORKGROUP), MASK, 'n : i32, keep : f32,');
      return runProgram(backend, program, [x, u], [
        { type: 'int32', data: [n] },
        { type: 'float32', data: [1 - (attrs as { rate: number }).rate] },
      ]);
    },
  });
  tf.registerGradient({
    kernelName: DROPOUT,
    inputsToSave: ['u'],
    gradFunc: (dy, [u], attrs) => ({
      x: () => fusedDropout(dy as tf.Tensor, u, (attrs as { rate: number }).rate),
      // The draws come from the seed: nothing upstream of them is trained.
      u: () => tf.zerosLike(u),
    }),
  });
}
