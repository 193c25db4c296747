import type * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';

/**
 * A tfjs-backend-webgpu program run as `groups` workgroups of `size` threads (default WORKGROUP) on a
 * flat dispatch: the shader's `main(index)` gets the global thread index, so `index / size` is the
 * workgroup (also when the backend folds a long dispatch into 2-D) and `localId.x` the lane. The key
 * must name everything baked into `code`: the backend adds the inputs' ranks and dtypes, not their sizes.
 */
export const WORKGROUP = 64;

export class WorkgroupProgram {
  readonly outputShape: number[];
  shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number];
  readonly uniforms: string;

  constructor(
    key: string,
    readonly variableNames: string[],
    outputShape: number[],
    groups: number,
    private readonly code: string,
    uniforms = '',
    size = WORKGROUP,
  ) {
    this.outputShape = outputShape;
    this.workgroupSize = [size, 1, 1];
    this.shaderKey = `eorm_${key}`;
    this.dispatchLayout = { x: outputShape.map((_, i) => i) };
    this.dispatch = [groups, 1, 1];
    this.uniforms = uniforms;
  }

  getUserCode(): string {
    return this.code;
  }
}

export type Uniform = { type: 'float32' | 'int32'; data: number[] };

/** Runs `program` on the backend a kernel function was handed. */
export function runProgram(backend: unknown, program: WorkgroupProgram, inputs: tf.TensorInfo[], uniforms: Uniform[] = []): tf.TensorInfo {
  return (backend as WebGPUBackend).runWebGPUProgram(program as never, inputs, 'float32', uniforms);
}

/**
 * WGSL: `reduceSum(v)` and `reduceMax(v)` combine one f32 per lane over a workgroup of `size` (a power
 * of two) lanes and return the result to every lane (a tree in workgroup memory; every lane must call
 * them: they hold barriers).
 */
export const reduceSumSnippet = (size: number) => `
  var<workgroup> partials : array<f32, ${size}>;
  fn reduceSum(v : f32) -> f32 {
    let lane = localId.x;
    partials[lane] = v;
    workgroupBarrier();
    for (var half = ${size / 2}u; half > 0u; half = half / 2u) {
      if (lane < half) {
        partials[lane] = partials[lane] + partials[lane + half];
      }
      workgroupBarrier();
    }
    let total = partials[0];
    workgroupBarrier();
    return total;
  }
  fn reduceMax(v : f32) -> f32 {
    let lane = localId.x;
    partials[lane] = v;
    workgroupBarrier();
    for (var half = ${size / 2}u; half > 0u; half = half / 2u) {
      if (lane < half) {
        partials[lane] = max(partials[lane], partials[lane + half]);
      }
      workgroupBarrier();
    }
    let best = partials[0];
    workgroupBarrier();
    return best;
  }`;

export const REDUCE_SUM = reduceSumSnippet(WORKGROUP);
