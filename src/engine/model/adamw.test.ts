import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { maxAbsDiff } from '../testing/allclose.ts';
import { AdamW, EMBEDDING } from './adamw.ts';
import { activeProfile } from '../backend/profile.ts';

describe('AdamW with the embedding gradient given as rows', () => {
  it('equals AdamW with the dense gradient those rows stand for, every row updated', async () => {
    await tf.setBackend('cpu');
    const rng = createRng(5);
    const shapes: Array<[string, number[]]> = [
      [EMBEDDING, [40, 3]],
      ['w', [4, 3]],
    ];
    const make = () =>
      new Map(
        shapes.map(([n, s]) => [
          n,
          tf.variable(
            tf.tensor(
              Float32Array.from({ length: s[0] * s[1] }, (_, i) => Math.sin(i + s[0])),
              s,
            ),
          ),
        ]),
      );
    const [sparse, dense] = [make(), make()];
    const [a, b] = [new AdamW(sparse, undefined, false, activeProfile()), new AdamW(dense, undefined, false, activeProfile())];
    for (const rows of [
      [1, 2, 30],
      [2, 7],
      [0, 39],
    ]) {
      const g = Float32Array.from({ length: rows.length * 3 }, () => rng.next() - 0.5);
      const gw = Float32Array.from({ length: 12 }, () => rng.next() - 0.5);
      const full = new Float32Array(120);
      rows.forEach((r, k) => full.set(g.subarray(3 * k, 3 * k + 3), 3 * r));
      const rowIds = tf.tensor1d(rows, 'int32');
      tf.tidy(() => {
        a.step(
          sparse,
          new Map([
            [EMBEDDING, tf.tensor2d(g, [rows.length, 3])],
            ['w', tf.tensor2d(gw, [4, 3])],
          ]),
          1e-2,
          tf.scalar(0.5),
          undefined,
          rowIds,
        );
        b.step(
          dense,
          new Map([
            [EMBEDDING, tf.tensor2d(full, [40, 3])],
            ['w', tf.tensor2d(gw, [4, 3])],
          ]),
          1e-2,
          tf.scalar(0.5),
        );
      });
      rowIds.dispose();
    }
    for (const [name] of shapes) {
      const [x, y] = (await Promise.all([sparse.get(name)!.data(), dense.get(name)!.data()])) as Float32Array[];
      expect(maxAbsDiff(x, y).max, name).toBe(0);
    }
    // Rows never in a step moved too (weight decay), as full AdamW moves them.
    const untouched = ((await sparse.get(EMBEDDING)!.data()) as Float32Array)[3 * 5];
    expect(untouched).not.toBe(Math.fround(Math.sin(3 * 5 + 40)));
    a.dispose();
    b.dispose();
    tf.dispose([...sparse.values(), ...dense.values()]);
  });
});
