import * as tf from '@tensorflow/tfjs';
import { composedAdamW } from '../adamw.ts';
import { ADAMW_PARAM, FlatMoments } from './adamwFlat.ts';
import { randomTensor, relativeError } from './fusedParity.ts';
import type { ParityErrors } from './fusedParity.ts';
import { hasKernel } from './hasKernel.ts';

const SHAPES: number[][] = [[3, 5], [17], [64, 33], [1], [200], [7, 7], [1000], [2, 300]];

/**
 * The flat-moments AdamW over 8 parameters (two links of gradients) against the composition per
 * parameter: three steps with clipping, then one with apply false and NaN gradients; p, m and v
 * relative to each tensor's largest entry (worst over the parameters), and `skipMoved`, the largest
 * change of p, m or v in the skipped step (NaN counts as a change). Null where the backend has no kernel.
 */
export async function adamwFlatParity(): Promise<ParityErrors | null> {
  if (!hasKernel(ADAMW_PARAM)) return null;
  const names = SHAPES.map((_, i) => `w${i}`);
  const params = new Map(names.map((n, i) => [n, tf.variable(randomTensor(SHAPES[i], 20 + i), false)]));
  const reference: Array<Record<'p' | 'm' | 'v', tf.Tensor>> = names.map((n, i) => ({ p: tf.clone(params.get(n)!), m: tf.zeros(SHAPES[i]), v: tf.zeros(SHAPES[i]) }));
  const flat = new FlatMoments(names.map((n, i) => [n, SHAPES[i]]));
  const snapshot = async () => {
    const { m, v } = await flat.read();
    return [...((await Promise.all(names.map((n) => params.get(n)!.data()))) as Float32Array[]), ...m.values(), ...v.values()];
  };
  let skipMoved = 0;
  try {
    for (let t = 1; t <= 4; t++) {
      const skip = t === 4;
      const before = skip ? await snapshot() : [];
      const grads = new Map(names.map((n, i) => [n, skip ? tf.fill(SHAPES[i], Number.NaN) : randomTensor(SHAPES[i], 100 * t + i, 0.1)]));
      const scale = tf.scalar(0.7);
      const apply = tf.scalar(!skip);
      const s = { lr: 1e-3 * t, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, t };
      flat.step(params, grads, scale, apply, s);
      reference.forEach((r, i) => {
        const [p, m, v] = composedAdamW(r.p, r.m, r.v, grads.get(names[i])!, scale, apply, s);
        tf.dispose([r.p, r.m, r.v]);
        reference[i] = { p, m, v };
      });
      tf.dispose([...grads.values(), scale, apply]);
      if (skip) (await snapshot()).forEach((a, k) => a.forEach((x, j) => (skipMoved = Math.max(skipMoved, Number.isNaN(x) ? Infinity : Math.abs(x - before[k][j])))));
    }
    const { m, v } = await flat.read();
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
