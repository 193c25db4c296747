import * as tf from '@tensorflow/tfjs';
import { TILED_MATMUL, type TileShape, useTiledMatMul } from '../../kernels/webgpu/matMul.ts';
import { type ParityErrors, hasKernel, randomTensor, relativeError } from './compare.ts';

interface Case {
  name: string;
  a: number[];
  b: number[];
  transposeA: boolean;
  transposeB: boolean;
  bias?: number;
}

/** Shapes the model uses (linear with its bias, attention's batched products, their gradients' transposes) and sizes off the tiles' edges. */
const CASES: Case[] = [
  { name: 'linear', a: [150, 70], b: [90, 70], transposeA: false, transposeB: true, bias: 90 },
  { name: 'nn', a: [37, 29], b: [29, 130], transposeA: false, transposeB: false },
  { name: 'tn', a: [300, 65], b: [300, 33], transposeA: true, transposeB: false },
  { name: 'tt', a: [20, 17], b: [9, 20], transposeA: true, transposeB: true },
  { name: 'batched', a: [6, 40, 24], b: [6, 50, 24], transposeA: false, transposeB: true },
];

/**
 * The tiled products (both tile shapes) against tfjs's own kernel on the same inputs: value and both
 * gradients under a random upstream gradient, each as max|Δ| / max|tfjs|, worst over the cases; and
 * `unused`, the tile shapes whose program tfjs never compiled (it must have run, not handed back).
 * Null where the kernel is not registered.
 */
export async function matMulParity(): Promise<ParityErrors | null> {
  if (!hasKernel(TILED_MATMUL)) return null;
  const errors: ParityErrors = {};
  const before = useTiledMatMul(null);
  try {
    for (const [k, c] of CASES.entries()) {
      const a = randomTensor(c.a, 30 + k);
      const b = randomTensor(c.b, 50 + k);
      const bias = c.bias ? randomTensor([c.bias], 70 + k) : null;
      const f = (x: tf.Tensor, y: tf.Tensor) => (bias ? tf.fused.matMul({ a: x, b: y, transposeA: c.transposeA, transposeB: c.transposeB, bias }) : tf.matMul(x, y, c.transposeA, c.transposeB));
      const withTiles = (t: TileShape | null) => {
        useTiledMatMul(t);
        return tf.tidy(() => {
          const value = f(a, b);
          const dy = randomTensor(value.shape, 11);
          return [value, ...tf.grads(f)([a, b], dy)];
        });
      };
      const reference = withTiles(null);
      for (const tile of ['16x4', '8x8'] as const) {
        const mine = withTiles(tile);
        for (const [i, part] of ['value', 'da', 'db'].entries()) {
          const key = `${part} ${tile}`;
          errors[key] = Math.max(errors[key] ?? 0, await relativeError(mine[i], reference[i]));
        }
        tf.dispose(mine);
      }
      tf.dispose([...reference, a, b, ...(bias ? [bias] : [])]);
    }
  } finally {
    useTiledMatMul(before);
  }
  const compiled = Object.keys((tf.backend() as unknown as { pipelineCache: Record<string, unknown> }).pipelineCache);
  errors.unused = ['16x4', '8x8'].filter((t) => !compiled.some((key) => key.startsWith(`eorm_matmul_${t}`))).length;
  return errors;
}
