import * as tf from '@tensorflow/tfjs';
import { composedAdamW } from './adamw.ts';
import { ADAMW_LINK, FlatMoments, type RowGradient } from './webgpuFlat.ts';
import { type ParityErrors, hasKernel, randomTensor, relativeError } from '../parity.ts';
import { readTogether } from '../../gpuMemory/readTogether.ts';

/** Dense parameters (three links of gradients), then a table whose gradient comes as rows. */
const SHAPES: number[][] = [[3, 5], [17], [64, 33], [1], [200], [7, 7], [1000], [2, 300], [50, 6]];
const TABLE = SHAPES.length - 1;
/** The table's rows with a gradient in each step (ascending); the others' gradient is 0. */
const ROWS = [
  [0, 3, 4, 17, 49],
  [3, 5, 6, 30],
  [1, 3, 49],
];

/**
 * The in-place flat AdamW over 9 parameters against the composition per parameter (the table's row
 * gradient scattered into the dense one it stands for): three steps with clipping, then one with apply
 * false and NaN gradients; p, m and v relative to each tensor's largest entry (worst over the
 * parameters), and `skipMoved`, the largest change of p, m or v in the skipped step (NaN counts as a
 * change). Null where the backend has no kernel.
 */
export async function adamwFlatParity(): Promise<ParityErrors | null> {
  if (!hasKernel(ADAMW_LINK)) return null;
  const names = SHAPES.map((_, i) => `w${i}`);
  const params = new Map(names.map((n, i) => [n, tf.variable(randomTensor(SHAPES[i], 20 + i), false)]));
  const reference: Array<Record<'p' | 'm' | 'v', tf.Tensor>> = names.map((n, i) => ({
    p: tf.mul(params.get(n)!, 1),
    m: tf.zeros(SHAPES[i]),
    v: tf.zeros(SHAPES[i]),
  }));
  const flat = new FlatMoments(names.map((n, i) => [n, SHAPES[i]]));
  // As a checkpoint reads them: the weights and the moments in one read-back (readTogether's one map on WebGPU).
  const read = async () => {
    const values = await readTogether([...names.map((n) => params.get(n)!), flat.buffer]);
    return { p: values.slice(0, names.length), ...flat.split(values[names.length]) };
  };
  const snapshot = async () => {
    const { p, m, v } = await read();
    return [...p, ...m.values(), ...v.values()];
  };
  let skipMoved = 0;
  try {
    for (let t = 1; t <= 4; t++) {
      const skip = t === 4;
      // Read before every step: tfjs keeps a read tensor's values on the CPU, which an in-place write must drop.
      const before = await snapshot();
      const rows = ROWS[(t - 1) % ROWS.length];
      const width = SHAPES[TABLE][1];
      const gradShape = (i: number) => (i === TABLE ? [rows.length, width] : SHAPES[i]);
      const grads = new Map(names.map((n, i) => [n, skip ? tf.fill(gradShape(i), Number.NaN) : randomTensor(gradShape(i), 100 * t + i, 0.1)]));
      const sparse: RowGradient = { rows: tf.tensor1d(rows, 'int32'), grad: grads.get(names[TABLE]) as tf.Tensor2D };
      const dense = tf.scatterND(tf.reshape(sparse.rows, [-1, 1]), sparse.grad, SHAPES[TABLE]);
      const scale = tf.scalar(0.7);
      const apply = tf.scalar(!skip);
      const s = { lr: 1e-3 * t, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, t };
      flat.step(params, grads, scale, apply, s, new Map([[names[TABLE], sparse]]));
      reference.forEach((r, i) => {
        const [p, m, v] = composedAdamW(r.p, r.m, r.v, i === TABLE ? dense : grads.get(names[i])!, scale, apply, s);
        tf.dispose([r.p, r.m, r.v]);
        reference[i] = { p, m, v };
      });
      tf.dispose([...grads.values(), sparse.rows, dense, scale, apply]);
      if (skip)
        (await snapshot()).forEach((a, k) => a.forEach((x, j) => (skipMoved = Math.max(skipMoved, Number.isNaN(x) ? Infinity : Math.abs(x - before[k][j])))));
    }
    const { m, v } = await read();
    const errors = { p: 0, m: 0, v: 0, skipMoved };
    for (const [i, n] of names.entries()) {
      const mine = { p: params.get(n)!, m: tf.tensor(m.get(n)!, SHAPES[i]), v: tf.tensor(v.get(n)!, SHAPES[i]) };
      for (const key of ['p', 'm', 'v'] as const) errors[key] = Math.max(errors[key], await relativeError(mine[key], reference[i][key]));
      tf.dispose([mine.m, mine.v]);
    }
    return errors;
  } finally {
    flat.dispose();
    tf.dispose([...params.values(), ...reference.flatMap((r) => [r.p, r.m, r.v])]);
  }
}
