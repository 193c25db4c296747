import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from './program.ts';

/**
 * Dropout on WebGPU in one dispatch each way, its mask drawn on the device. tf.dropout draws its
 * uniforms on the CPU (a sequential generator) and uploads them: 2.8 MB a step for the tiny preset and
 * about 110 MB for the paper architecture at maxLen 512, with tens of millions of draws in JavaScript.
 * Here element i of a call with seed s keeps its value when a keyed hash of (s, i) is at least `rate`:
 * the same mask for the same seed and shape on every run, so the micro-batched step's replay and Resume
 * see the masks of the first pass, but not the masks of the CPU and WASM backends (two runs on different
 * backends differ by their masks as they do by their rounding). The gradient is the same kernel applied
 * to dy, from the seed: no mask is kept for the backward pass.
 *
 * The seed is computed on the device: a base (an int32 tensor, the step's seed, or a number) mixed with
 * a path of constants (the chunk, the site, the tensor) by dropout.ts's mixSeed. The step's GPU work thus
 * holds no value of its own step, so it can be recorded once and replayed (replay/stepReplay.ts).
 */
export const DROPOUT = 'EormDropout';

/** A dropout call's seed: `base` mixed with each of `path` in turn (mixSeed(mixSeed(base, p0), p1)…). */
export interface DropoutSeed {
  base: tf.Tensor | number;
  path: readonly number[];
}

export const MAX_SEED_PATH = 3;

export function fusedDropout(x: tf.Tensor, seed: DropoutSeed, rate: number): tf.Tensor {
  if (seed.path.length > MAX_SEED_PATH) throw new Error(`a dropout seed path holds at most ${MAX_SEED_PATH} constants`);
  return tf.tidy(() => {
    const base = typeof seed.base === 'number' ? tf.tensor1d([seed.base | 0], 'int32') : tf.reshape(seed.base, [1]);
    return tf.engine().runKernel(DROPOUT, { x, seed: base }, { rate, path: [...seed.path] }) as tf.Tensor;
  });
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
  // model/dropout.ts's mixSeed: the same finaliser over two keyed words.
  fn mixSeed(a : u32, b : u32) -> u32 {
    return lowbias32((a ^ 0x9e3779b9u) * 0x85ebca6bu + (b + 0x632be5abu) * 0xc2b2ae35u);
  }
  fn main(index : i32) {
    if (index < uniforms.n) {
      var seed = bitcast<u32>(SEED[0]);
      if (uniforms.depth > 0) { seed = mixSeed(seed, bitcast<u32>(uniforms.p0)); }
      if (uniforms.depth > 1) { seed = mixSeed(seed, bitcast<u32>(uniforms.p1)); }
      if (uniforms.depth > 2) { seed = mixSeed(seed, bitcast<u32>(uniforms.p2)); }
      let s = lowbias32(seed);
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
        const { x, seed } = inputs as Record<string, tf.TensorInfo>;
        const { rate, path } = attrs as unknown as { rate: number; path: number[] };
        const n = x.shape.reduce((a, b) => a * b, 1);
        const program = new WorkgroupProgram('dropout_hash', ['X', 'SEED'], x.shape, Math.ceil(n / WORKGROUP), MASK, 'n : i32, depth : i32, p0 : i32, p1 : i32, p2 : i32, rate : f32, keep : f32,');
        const p = [0, 1, 2].map((k) => ({ type: 'int32' as const, data: [(path[k] ?? 0) | 0] }));
        return runProgram(backend, program, [x, seed], [
          { type: 'int32', data: [n] },
          { type: 'int32', data: [path.length] },
          ...p,
          { type: 'float32', data: [rate] },
          { type: 'float32', data: [1 - rate] },
        ]);
      },
    },
  ],
  gradients: [
    {
      kernelName: DROPOUT,
      inputsToSave: ['seed'],
      gradFunc: (dy, [seed], attrs) => {
        const { rate, path } = attrs as unknown as { rate: number; path: number[] };
        return {
          x: () => fusedDropout(dy as tf.Tensor, { base: seed, path }, rate),
          // The seed is data: nothing upstream of it is trained.
          seed: () => tf.zerosLike(seed),
        };
      },
    },
  ],
};
