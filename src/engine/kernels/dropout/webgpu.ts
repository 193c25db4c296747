import * as tf from '@tensorflow/tfjs';
import { type DropoutGrid, keepCut, keepScale } from './keys.ts';
import type { KernelFamily } from '../register.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * Dropout on WebGPU in one dispatch each way, its mask drawn on the device. tf.dropout draws its
 * uniforms on the CPU (a sequential generator) and uploads them: 2.8 MB a step for the tiny preset and
 * about 110 MB for the paper architecture at maxLen 512, with tens of millions of draws in JavaScript.
 * Here the mask is keys.ts's, the host kernel's and the composition's: element (r, c) of x as
 * [rows, cols] (cols its last dimension) keyed by the seed, the candidate and position the grid gives
 * row r, and c. So replay and Resume see the masks of the first pass, and the CPU and WASM backends draw
 * the same masks (runs on different backends differ by their rounding only). The gradient is the same
 * kernel applied to dy, from the seed: no mask is kept for the backward pass.
 *
 * The seed is computed on the device: a base (an int32 tensor, the step's seed, or a number) mixed with
 * a path of constants (the step key, the site) by shared/rng.ts's mixSeed. The step's GPU work thus holds
 * no value of its own step (the grid is the shape's), so it can be recorded once and replayed
 * (replay/stepReplay.ts).
 */
export const DROPOUT = 'EormDropout';

/** A dropout call's seed: `base` mixed with each of `path` in turn (mixSeed(mixSeed(base, p0), p1)…). */
export interface DropoutSeed {
  base: tf.Tensor | number;
  path: readonly number[];
}

export const MAX_SEED_PATH = 3;

export function fusedDropout(x: tf.Tensor, seed: DropoutSeed, rate: number, grid: DropoutGrid): tf.Tensor {
  if (seed.path.length > MAX_SEED_PATH) throw new Error(`a dropout seed path holds at most ${MAX_SEED_PATH} constants`);
  return tf.tidy(() => {
    const base = typeof seed.base === 'number' ? tf.tensor1d([seed.base | 0], 'int32') : tf.reshape(seed.base, [1]);
    return tf.engine().runKernel(DROPOUT, { x, seed: base }, { rate, path: [...seed.path], ...grid }) as tf.Tensor;
  });
}

interface Attrs extends DropoutGrid {
  rate: number;
  path: number[];
}

// lowbias32 (C. Wellons), a bijection of u32 with good avalanche: shared/rng.ts's, in u32 arithmetic
// (JavaScript's Math.imul and | 0 wrap as WGSL's u32 does).
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
  // shared/rng.ts's mixSeed: the same finaliser over two keyed words.
  fn mixSeed(a : u32, b : u32) -> u32 {
    return lowbias32((a ^ 0x9e3779b9u) * 0x85ebca6bu + (b + 0x632be5abu) * 0xc2b2ae35u);
  }
  fn main(index : i32) {
    if (index < uniforms.n) {
      var seed = bitcast<u32>(SEED[0]);
      if (uniforms.depth > 0) { seed = mixSeed(seed, bitcast<u32>(uniforms.p0)); }
      if (uniforms.depth > 1) { seed = mixSeed(seed, bitcast<u32>(uniforms.p1)); }
      if (uniforms.depth > 2) { seed = mixSeed(seed, bitcast<u32>(uniforms.p2)); }
      // The element's keys: row r's candidate and position by the grid (keys.ts's gridRows), column c.
      let r = u32(index / uniforms.cols);
      let c = u32(index % uniforms.cols);
      let per = u32(uniforms.perCandidate);
      let inner = u32(uniforms.innerRows);
      let q = r % per;
      let candidate = u32(uniforms.candidate0) + r / per;
      let position = (q / inner) * u32(uniforms.positionStride) + q % inner;
      let row = lowbias32(lowbias32(lowbias32(seed ^ 0x9e3779b9u) ^ candidate) ^ position);
      let h = lowbias32(row + c * 0x9e3779b9u);
      let kept = (h >> 8u) >= u32(uniforms.cut);
      setOutputAtIndex(index, X[index] * select(0.0, uniforms.scale, kept));
    }
  }`;

/** The kernel and its gradient (the same kernel on dy, from the seed). */
export const DROPOUT_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: DROPOUT,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { x, seed } = inputs as Record<string, tf.TensorInfo>;
        const { rate, path, first, perCandidate, inner, stride } = attrs as unknown as Attrs;
        const n = x.shape.reduce((a, b) => a * b, 1);
        const program = new WorkgroupProgram(
          'dropout_keyed',
          ['X', 'SEED'],
          x.shape,
          Math.ceil(n / WORKGROUP),
          MASK,
          'n : i32, cols : i32, depth : i32, p0 : i32, p1 : i32, p2 : i32, candidate0 : i32, perCandidate : i32, innerRows : i32, positionStride : i32, cut : i32, scale : f32,',
        );
        const int = (v: number) => ({ type: 'int32' as const, data: [v | 0] });
        return runProgram(
          backend,
          program,
          [x, seed],
          [
            int(n),
            int(x.shape[x.shape.length - 1]),
            int(path.length),
            ...[0, 1, 2].map((k) => int(path[k] ?? 0)),
            ...[first, perCandidate, inner, stride].map(int),
            int(keepCut(rate)),
            { type: 'float32', data: [keepScale(rate)] },
          ],
        );
      },
    },
  ],
  gradients: [
    {
      kernelName: DROPOUT,
      inputsToSave: ['seed'],
      gradFunc: (dy, [seed], attrs) => {
        const { rate, path, first, perCandidate, inner, stride } = attrs as unknown as Attrs;
        return {
          x: () => fusedDropout(dy as tf.Tensor, { base: seed, path }, rate, { first, perCandidate, inner, stride }),
          // The seed is data: nothing upstream of it is trained.
          seed: () => tf.zerosLike(seed),
        };
      },
    },
  ],
};
