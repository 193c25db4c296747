import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from './program.ts';

/**
 * Dropout on WebGPU in one dispatch each way, its mask drawn on the device. tf.dropout draws its
 * uniforms on the CPU (a sequential generator) and uploads them: 2.8 MB a step for the tiny preset and
 * about 110 MB for the paper architecture at maxLen 512, with tens of millions of draws in JavaScript.
 * Here element i of a call with seed s keeps its value when a keyed hash of (s, i) is at least `rate`:
 * the same mask for the same seed and shape on every run, so the micro-batched step's replay and Resume
 * see the masks of the first pass, but not the masks tf.dropout draws on the CPU and WASM backends (two
 * runs on different backends differ by their masks as they do by their rounding). The gradient is the
 * same kernel applied to dy, from the seed: no mask is kept for the backward pass.
 */
export const DROPOUT = 'EormDropout';

export function fusedDropout(x: tf.Tensor, seed: number, rate: number): tf.Tensor {
  return tf.engine().runKernel(DROPOUT, { x }, { rate, seed }) as tf.Tensor;
}

// lowbias32 (C. Wellons), a bijection of u32 with good avalanche; keyed twice by the seed, so that two
// seeds' streams are neither shifts nor permutations of each other. The top 24 bits make u in [0, 1).
const MASK = `
  fn lowbias32(v : u32) -> u32 {
    var h = v;
    h = h ^ (h >> 16u);
    h = h * 0x7feb352du;
    h = h ^ (h >> 15u);
    h = h * 0x846ca68bu;
    h = h ^ (h >> 16u);
    return h;
  }
  fn main(index : i32) {
    if (index < uniforms.n) {
      let s = lowbias32(bitcast<u32>(uniforms.seed));
      let h = lowbias32(lowbias32(u32(index) ^ s) ^ (s * 0x9e3779b9u + 0x632be5abu));
      let u = f32(h >> 8u) * (1.0 / 16777216.0);
      let kept = select(0.0, 1.0, u >= uniforms.rate);
      setOutputAtIndex(index, X[index] * (kept / uniforms.keep));
    }
  }`;

/** The kernel and its gradient (the same kernel on dy, from the seed). */
export const DROPOUT_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: DROPOUT,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { x } = inputs as Record<string, tf.TensorInfo>;
        const { rate, seed } = attrs as unknown as { rate: number; seed: number };
        const n = x.shape.reduce((a, b) => a * b, 1);
        const program = new WorkgroupProgram('dropout_hash', ['X'], x.shape, Math.ceil(n / WORKGROUP), MASK, 'n : i32, seed : i32, rate : f32, keep : f32,');
        return runProgram(backend, program, [x], [
          { type: 'int32', data: [n] },
          { type: 'int32', data: [seed | 0] },
          { type: 'float32', data: [rate] },
          { type: 'float32', data: [1 - rate] },
        ]);
      },
    },
  ],
  gradients: [
    {
      kernelName: DROPOUT,
      gradFunc: (dy, _saved, attrs) => {
        const { rate, seed } = attrs as unknown as { rate: number; seed: number };
        return { x: () => fusedDropout(dy as tf.Tensor, seed, rate) };
      },
    },
  ],
};
