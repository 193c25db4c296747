import * as tf from '@tensorflow/tfjs';
import type { PairGroups } from './pairGroups.ts';
import type { KernelFamily } from '../register.ts';
import { reduceSumSnippet, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * The group-wise Bradley-Terry loss and its gradient on WebGPU, one dispatch each, whatever the number
 * of groups (the composition runs ~10 small kernels per group forward and as many backward). The pair
 * structure travels as one [n, 3] table per step — group index (−1: no loss), label, pair weight — so
 * each candidate finds its pairs by scanning the n candidates: O(n²) work for groups of a few answers.
 */
export const BT_LOSS = 'EormBtLoss';
const BT_GRADIENT = 'EormBtGradient';

const LANES = 256;

/** Per candidate: its group among those with both labels (−1 if none), its label, its pairs' weight 1/(P·Q·G). */
export function pairTableValues(pairs: PairGroups): Float32Array {
  const table = new Float32Array(pairs.n * 3);
  for (let k = 0; k < pairs.n; k++) table[3 * k] = -1;
  const G = pairs.groups.length;
  pairs.groups.forEach((g, index) => {
    const weight = 1 / (g.pos.length * g.neg.length * G);
    for (const [members, label] of [
      [g.pos, 1],
      [g.neg, 0],
    ] as const) {
      for (const k of members) table.set([index, label, weight], 3 * k);
    }
  });
  return table;
}

/** The pair table on the device: the step's own (`pairs.table`) or uploaded now. */
const pairTable = (pairs: PairGroups): tf.Tensor2D => pairs.table ?? tf.tensor2d(pairTableValues(pairs), [pairs.n, 3]);

/** WGSL helpers: the pair table's fields, softplus and sigmoid in tfjs-backend-webgpu's own forms (log(1 + ·), 1/(1 + e^−·)). */
const PAIRS = `
  fn groupOf(k : i32) -> i32 { return i32(P[3 * k]); }
  fn isPositive(k : i32) -> bool { return P[3 * k + 1] > 0.5; }
  fn softplus(x : f32) -> f32 { return log(1.0 + exp(-abs(x))) + max(x, 0.0); }
  fn sigmoid(x : f32) -> f32 { return 1.0 / (1.0 + exp(-1.0 * x)); }`;

/** L = Σ over (i correct, j incorrect, same group) of w · softplus(E_i − E_j), by one workgroup. */
const LOSS = `
  ${PAIRS}
  ${reduceSumSnippet(LANES)}
  fn main(index : i32) {
    let n = uniforms.n;
    var acc = 0.0;
    for (var i = i32(localId.x); i < n; i += ${LANES}) {
      let g = groupOf(i);
      if (g >= 0 && isPositive(i)) {
        for (var j = 0; j < n; j++) {
          if (groupOf(j) == g && !isPositive(j)) { acc += softplus(E[i] - E[j]) * P[3 * i + 2]; }
        }
      }
    }
    let total = reduceSum(acc);
    if (localId.x == 0u) { setOutputAtIndex(0, total); }
  }`;

/** dL/dE_k · dy: + Σ_j w·σ(E_k − E_j) for a correct k, − Σ_i w·σ(E_i − E_k) for an incorrect one, 0 outside the loss. */
const GRADIENT = `
  ${PAIRS}
  fn main(index : i32) {
    let n = uniforms.n;
    if (index < n) {
      let g = groupOf(index);
      let positive = isPositive(index);
      var acc = 0.0;
      if (g >= 0) {
        for (var j = 0; j < n; j++) {
          if (groupOf(j) == g && isPositive(j) != positive) {
            acc += select(-sigmoid(E[j] - E[index]), sigmoid(E[index] - E[j]), positive) * P[3 * index + 2];
          }
        }
      }
      setOutputAtIndex(index, acc * DY[0]);
    }
  }`;

/** The loss (a scalar) of energies `e` [n] under `pairs`; differentiable in `e`. */
export function fusedBtLoss(e: tf.Tensor1D, pairs: PairGroups): tf.Scalar {
  return tf.tidy(() => tf.reshape(tf.engine().runKernel(BT_LOSS, { e, pairs: pairTable(pairs) }) as tf.Tensor, []) as tf.Scalar);
}

/** dL/dE [n] in one dispatch. */
export function fusedBtLossGradient(e: tf.Tensor1D, pairs: PairGroups): tf.Tensor1D {
  return tf.tidy(() => tf.engine().runKernel(BT_GRADIENT, { e, pairs: pairTable(pairs), dy: tf.ones([1]) }) as tf.Tensor1D);
}

const n = (e: tf.TensorInfo) => [{ type: 'int32' as const, data: [e.shape[0]] }];

/** The loss, its gradient kernel, and the loss's registered gradient. */
export const BT_LOSS_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: BT_LOSS,
      kernelFunc: ({ inputs, backend }) =>
        runProgram(backend, new WorkgroupProgram('bt_loss', ['E', 'P'], [1], 1, LOSS, 'n : i32,', LANES), [inputs.e!, inputs.pairs!], n(inputs.e!)),
    },
    {
      kernelName: BT_GRADIENT,
      kernelFunc: ({ inputs, backend }) => {
        const e = inputs.e!;
        const program = new WorkgroupProgram('bt_gradient', ['E', 'P', 'DY'], e.shape, Math.ceil(e.shape[0] / LANES), GRADIENT, 'n : i32,', LANES);
        return runProgram(backend, program, [e, inputs.pairs!, inputs.dy!], n(e));
      },
    },
  ],
  gradients: [
    {
      kernelName: BT_LOSS,
      inputsToSave: ['e', 'pairs'],
      gradFunc: (dy, [e, pairs]) => ({
        e: () => tf.engine().runKernel(BT_GRADIENT, { e, pairs, dy: tf.reshape(dy as tf.Tensor, [1]) }) as tf.Tensor,
        // The pair table is data: nothing upstream of it is trained.
        pairs: () => tf.zerosLike(pairs),
      }),
    },
  ],
};
