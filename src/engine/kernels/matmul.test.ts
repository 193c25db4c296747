import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../data/rng.ts';
import { maxAbsDiff } from '../testing/allclose.ts';
import { slicedMatMul as matMul } from './matmul.ts';

beforeAll(async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
});

const rng = createRng(7);
const rand = (shape: number[]) => tf.tensor(Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.next() * 2 - 1), shape);

/** Value and both gradients (of Σ w·C for a random w) of one product, by the given matmul. */
function run(mm: typeof matMul, a: tf.Tensor, b: tf.Tensor, tA: boolean, tB: boolean, w: tf.Tensor) {
  const f = (x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(mm(x, y, tA, tB), w));
  const [da, db] = tf.grads(f)([a, b]);
  return { c: mm(a, b, tA, tB).dataSync().slice(), da: da.dataSync().slice(), db: db.dataSync().slice() };
}

describe('matMul on WASM (explicit transposes, one plain product per slice) equals tf.matMul', () => {
  const cases: Array<{ name: string; a: number[]; b: number[] }> = [
    { name: 'linear layer [37,24]·[40,24]ᵀ', a: [37, 24], b: [40, 24] },
    { name: 'attention scores [8,33,16]·[8,33,16]ᵀ', a: [8, 33, 16], b: [8, 33, 16] },
    { name: 'one batch slice [1,30,20]', a: [1, 30, 20], b: [1, 30, 20] },
    { name: 'tiny slices (CLS query) [8,1,16]·[8,33,16]ᵀ', a: [8, 1, 16], b: [8, 33, 16] },
  ];
  for (const c of cases) {
    for (const [tA, tB] of [[false, true], [false, false], [true, false], [true, true]] as const) {
      it(`${c.name}, transposeA=${tA}, transposeB=${tB}: values and gradients within 1e-5`, () => {
        tf.tidy(() => {
          const r = c.a.length;
          // Shapes are given for transposeB = true; build the operands every other combination needs.
          const m = c.a[r - 2];
          const k = c.a[r - 1];
          const n = c.b[r - 2];
          const batch = c.a.slice(0, -2);
          const a = rand([...batch, ...(tA ? [k, m] : [m, k])]);
          const b = rand([...batch, ...(tB ? [n, k] : [k, n])]);
          const w = rand([...batch, m, n]);
          const fast = run(matMul, a, b, tA, tB, w);
          const ref = run(tf.matMul as typeof matMul, a, b, tA, tB, w);
          for (const key of ['c', 'da', 'db'] as const) expect(maxAbsDiff(fast[key], ref[key]).max, key).toBeLessThan(1e-5);
        });
      });
    }
  }
});
