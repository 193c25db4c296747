import * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import type { KernelFamily } from '../register.ts';
import { WorkgroupProgram, reduceSumSnippet, runProgram } from '../webgpu/program.ts';

/**
 * The global L2 norm of every gradient, the clip coefficient and whether the step applies on WebGPU, in
 * about one dispatch per six gradients plus two (the composition: square, sum and add per gradient, ~93 for the tiny model).
 * A dispatch binds at most 7 inputs (WebGPU's default of 8 storage buffers per stage, one the output),
 * so the sum of squares runs as a chain: each link adds its tensors' squares to the previous link's
 * total, and the last one takes the square root. A gradient above LARGE entries (the embedding) is
 * first reduced to per-workgroup partial sums by many workgroups, so no single workgroup walks it alone.
 */
export const SQUARED_NORM_LINK = 'EormSquaredNormLink';
const SQUARED_NORM_PARTIALS = 'EormSquaredNormPartials';
export const CLIP_COEFFICIENT = 'EormClipCoefficient';
export const BOTH_FINITE = 'EormBothFinite';

const LANES = 256;
const LINK_INPUTS = 7;
/** Above this many entries a gradient is summed by many workgroups first: a link's one workgroup walking ~10^6 entries took ~0.2 ms on an H100. */
const LARGE = 1 << 16;
/** Elements per workgroup of the partial sums. */
const CHUNK = LANES * 64;

type Kind = 'square' | 'sum';

/** One link: Σ of the inputs' squares ('square') or values ('sum': totals already squared), rooted if `root`. */
function link(kinds: Kind[], root: boolean): string {
  const names = kinds.map((_, i) => `X${i}`);
  const loops = kinds.map(
    (k, i) => `for (var i = lane; i < uniforms.n${i}; i += ${LANES}) { let v = ${names[i]}[i]; acc += ${k === 'square' ? 'v * v' : 'v'}; }`,
  );
  return `
    ${reduceSumSnippet(LANES)}
    fn main(index : i32) {
      let lane = i32(localId.x);
      var acc = 0.0;
      ${loops.join('\n      ')}
      let total = reduceSum(acc);
      if (lane == 0) { setOutputAtIndex(0, ${root ? 'sqrt(total)' : 'total'}); }
    }`;
}

const PARTIALS = `
  ${reduceSumSnippet(LANES)}
  fn main(index : i32) {
    let start = (index / ${LANES}) * ${CHUNK};
    let end = min(start + ${CHUNK}, uniforms.n);
    var acc = 0.0;
    for (var i = start + i32(localId.x); i < end; i += ${LANES}) { let v = X[i]; acc += v * v; }
    let total = reduceSum(acc);
    if (localId.x == 0u && start < uniforms.n) { setOutputAtIndex(index / ${LANES}, total); }
  }`;

/** min(1, maxNorm / (norm + 1e-6)), NaN kept as NaN (as tf.minimum). */
const CLIP = `
  fn main(index : i32) {
    if (index == 0) {
      let c = uniforms.maxNorm / (N[0] + 1e-6);
      setOutputAtIndex(0, select(min(1.0, c), c, isnan(c)));
    }
  }`;

/** Whether a step applies: its loss and gradient norm both finite (tf: isFinite twice and logicalAnd, three dispatches). */
const FINITE = `
  fn main(index : i32) {
    if (index == 0) {
      let a = L[0];
      let b = N[0];
      setOutputAtIndex(0, select(0.0, 1.0, !isnan(a) && !isinf(a) && !isnan(b) && !isinf(b)));
    }
  }`;

const size = (t: tf.TensorInfo) => t.shape.reduce((a, b) => a * b, 1);

/** ‖grads‖₂ over every entry of every tensor: a scalar on the device. */
export function fusedGlobalNorm(grads: tf.Tensor[]): tf.Scalar {
  if (grads.length === 0) return tf.scalar(0);
  return tf.tidy(() => {
    const parts = grads.map((g) =>
      size(g) > LARGE ? { t: tf.engine().runKernel(SQUARED_NORM_PARTIALS, { x: g }) as tf.Tensor, kind: 'sum' as Kind } : { t: g, kind: 'square' as Kind },
    );
    let total: tf.Tensor | null = null;
    for (let i = 0; i < parts.length;) {
      const take = parts.slice(i, i + LINK_INPUTS - (total ? 1 : 0));
      i += take.length;
      const inputs = [...(total ? [{ t: total, kind: 'sum' as Kind }] : []), ...take];
      total = tf.engine().runKernel(SQUARED_NORM_LINK, Object.fromEntries(inputs.map((p, j) => [`x${j}`, p.t])), {
        kinds: inputs.map((p) => p.kind).join(','),
        root: i >= parts.length,
      }) as tf.Tensor;
    }
    return tf.reshape(total!, []) as tf.Scalar;
  });
}

export function fusedClipCoefficient(norm: tf.Scalar, maxNorm: number): tf.Scalar {
  return tf.tidy(() => tf.reshape(tf.engine().runKernel(CLIP_COEFFICIENT, { norm }, { maxNorm }) as tf.Tensor, []) as tf.Scalar);
}

/** A boolean scalar: both scalars finite. */
export function fusedBothFinite(a: tf.Scalar, b: tf.Scalar): tf.Scalar {
  return tf.tidy(() => tf.reshape(tf.engine().runKernel(BOTH_FINITE, { a, b }) as tf.Tensor, []) as tf.Scalar);
}

/** The norm's links and partial sums, the clip coefficient and the finite flag; nothing here is differentiated. */
export const GLOBAL_NORM_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: SQUARED_NORM_LINK,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { kinds, root } = attrs as unknown as { kinds: string; root: boolean };
        const list = kinds.split(',') as Kind[];
        const ins = list.map((_, j) => inputs[`x${j}`]!);
        const program = new WorkgroupProgram(
          `norm_link_${kinds}_${root}`,
          list.map((_, j) => `X${j}`),
          [1],
          1,
          link(list, root),
          list.map((_, j) => `n${j} : i32,`).join(' '),
          LANES,
        );
        return runProgram(
          backend,
          program,
          ins,
          ins.map((t) => ({ type: 'int32', data: [size(t)] })),
        );
      },
    },
    {
      kernelName: SQUARED_NORM_PARTIALS,
      kernelFunc: ({ inputs, backend }) => {
        const n = size(inputs.x!);
        const groups = Math.ceil(n / CHUNK);
        return runProgram(
          backend,
          new WorkgroupProgram('norm_partials', ['X'], [groups], groups, PARTIALS, 'n : i32,', LANES),
          [inputs.x!],
          [{ type: 'int32', data: [n] }],
        );
      },
    },
    {
      kernelName: BOTH_FINITE,
      kernelFunc: ({ inputs, backend }) =>
        (backend as unknown as WebGPUBackend).runWebGPUProgram(
          new WorkgroupProgram('both_finite', ['L', 'N'], [1], 1, FINITE, '', 1) as never,
          [inputs.a!, inputs.b!],
          'bool',
        ),
    },
    {
      kernelName: CLIP_COEFFICIENT,
      kernelFunc: ({ inputs, backend, attrs }) =>
        runProgram(
          backend,
          new WorkgroupProgram('clip_coefficient', ['N'], [1], 1, CLIP, 'maxNorm : f32,', 1),
          [inputs.norm!],
          [{ type: 'float32', data: [(attrs as { maxNorm: number }).maxNorm] }],
        ),
    },
  ],
};
