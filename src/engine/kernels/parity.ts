import * as tf from '@tensorflow/tfjs';
import { createRng } from '../shared/rng.ts';
import { maxAbsDiff } from '../testing/allclose.ts';

/**
 * What the kernels' parity checks share: random inputs, and a fused op against its composition on the
 * same inputs — the value and the gradient of every input under a random upstream gradient, each as
 * the largest |Δ| relative to the composition's largest entry. The checks measure; callers assert.
 */
export type ParityErrors = Record<string, number>;

/** Whether the active backend has `kernel` registered: a check of a kernel the backend lacks reports null. */
export const hasKernel = (kernel: string): boolean => tf.getKernel(kernel, tf.getBackend()) !== undefined;

export function randomTensor(shape: number[], seed: number, scale = 1): tf.Tensor {
  const rng = createRng(seed);
  return tf.tensor(
    Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => (rng.next() * 2 - 1) * scale),
    shape,
  );
}

/** max|a − b| / max|b|. */
export async function relativeError(a: tf.Tensor, b: tf.Tensor): Promise<number> {
  const [x, y] = (await Promise.all([a.data(), b.data()])) as Float32Array[];
  const scale = y.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  return maxAbsDiff(x, y).max / scale;
}

/** Errors named `value` and `d<name>` for each input with a gradient (`withGrad`, default all). */
export async function compareOps(
  fused: (...xs: tf.Tensor[]) => tf.Tensor,
  composed: (...xs: tf.Tensor[]) => tf.Tensor,
  inputs: Record<string, tf.Tensor>,
  withGrad: string[] = Object.keys(inputs),
): Promise<ParityErrors> {
  const names = Object.keys(inputs);
  const xs = names.map((n) => inputs[n]);
  const run = (f: (...xs: tf.Tensor[]) => tf.Tensor) =>
    tf.tidy(() => {
      const value = f(...xs);
      const dy = randomTensor(value.shape, 11);
      const differentiable = withGrad.map((n) => names.indexOf(n));
      const grads = tf.grads((...ys: tf.Tensor[]) => f(...xs.map((x, i) => (differentiable.includes(i) ? ys[differentiable.indexOf(i)] : x))))(
        differentiable.map((i) => xs[i]),
        dy,
      );
      return [value, ...grads];
    });
  const [a, b] = [run(fused), run(composed)];
  const errors: ParityErrors = { value: await relativeError(a[0], b[0]) };
  for (let i = 0; i < withGrad.length; i++) errors[`d${withGrad[i]}`] = await relativeError(a[i + 1], b[i + 1]);
  tf.dispose([...a, ...b]);
  return errors;
}
