import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { type DropoutRows, dropoutScales } from './keys.ts';
import { hostDropout } from './host.ts';
import { simdDropoutRow } from './wasm.ts';

const rate = 0.1;
const keep = Math.fround(1 / (1 - rate));

/** Row keys: candidate `first + r / perCandidate`, position `r % perCandidate`. */
function keys(rows: number, perCandidate: number, first = 0): DropoutRows {
  return {
    candidate: Int32Array.from({ length: rows }, (_, r) => first + Math.floor(r / perCandidate)),
    position: Int32Array.from({ length: rows }, (_, r) => r % perCandidate),
  };
}

function dropped(seed: number, rows: DropoutRows, cols: number): Uint8Array {
  const out = tf.tidy(() => hostDropout(tf.ones([rows.candidate.length, cols]), seed, rate, rows).dataSync());
  return Uint8Array.from(out, (v) => (v === 0 ? 1 : 0));
}

const share = (a: Uint8Array, pick: (i: number) => boolean) => {
  let n = 0;
  let hit = 0;
  for (let i = 0; i < a.length; i++) {
    if (!pick(i)) continue;
    n++;
    if (a[i]) hit++;
  }
  return hit / n;
};

for (const backend of ['cpu', 'wasm']) {
  describe(`hostDropout on ${backend}`, () => {
    it('drops `rate` of 2^20 draws, independently across columns, rows, candidates and seeds; keeps the rest × 1/keep', async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const cols = 1024;
      const rows = keys(1024, 64); // 16 candidates of 64 positions
      const a = dropped(7, rows, cols);
      expect(Math.abs(share(a, () => true) - rate)).toBeLessThan(0.002);
      // Pairs both dropped: rate² = 0.01 when independent. Neighbouring columns, the same column of neighbouring positions.
      const both = (di: number, ok: (i: number) => boolean) =>
        share(
          Uint8Array.from(a, (v, i) => (i >= di ? v & a[i - di] : 0)),
          (i) => i >= di && ok(i),
        );
      expect(Math.abs(both(1, (i) => i % cols !== 0) - rate * rate)).toBeLessThan(0.001);
      expect(Math.abs(both(cols, () => true) - rate * rate)).toBeLessThan(0.001);
      // Two masks agree on an element with probability 1 − 2·rate·(1 − rate) = 0.82 when independent:
      // consecutive seeds, and the same positions of other candidates.
      const agree = (b: Uint8Array) =>
        share(
          Uint8Array.from(a, (v, i) => (v === b[i] ? 1 : 0)),
          () => true,
        );
      const independent = 1 - 2 * rate * (1 - rate);
      expect(Math.abs(agree(dropped(8, rows, cols)) - independent)).toBeLessThan(0.002);
      expect(Math.abs(agree(dropped(7, keys(1024, 64, 1), cols)) - independent)).toBeLessThan(0.002);
      // Kept values are scaled as tf.dropout scales them.
      const values = tf.tidy(() => hostDropout(tf.ones([64, 64]), 7, rate, keys(64, 64)).dataSync());
      expect(new Set(values)).toEqual(new Set([0, keep]));
    });

    it('draws each row from its keys alone: any split, order or neighbours of the rows give the same rows', async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const rng = createRng(3);
      const x = tf.tensor2d(
        Float32Array.from({ length: 10 * 37 }, () => rng.next() - 0.5),
        [10, 37],
      );
      const rows = keys(10, 4, 5);
      const whole = hostDropout(x, 11, rate, rows).arraySync() as number[][];
      const part = (from: number, to: number) => {
        const sub = { candidate: rows.candidate.slice(from, to), position: rows.position.slice(from, to) };
        return hostDropout(tf.slice(x, [from, 0], [to - from, 37]), 11, rate, sub).arraySync() as number[][];
      };
      expect([...part(0, 5), ...part(5, 10)]).toEqual(whole);
      // Reversed rows with their keys: the same rows, reversed.
      const order = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0];
      const reversed = { candidate: Int32Array.from(order, (r) => rows.candidate[r]), position: Int32Array.from(order, (r) => rows.position[r]) };
      const back = hostDropout(tf.gather(x, order), 11, rate, reversed).arraySync() as number[][];
      expect(back.reverse()).toEqual(whole);
      // And the masks depend on the keys: other candidates, other masks.
      expect(hostDropout(x, 11, rate, keys(10, 4, 6)).arraySync()).not.toEqual(whole);
      tf.dispose(x);
    });

    it('has gradient dy · mask / keep, from the same keys', async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const rng = createRng(5);
      const x = tf.tensor2d(
        Float32Array.from({ length: 12 * 50 }, () => rng.next()),
        [12, 50],
      );
      const w = tf.tensor2d(
        Float32Array.from({ length: 12 * 50 }, () => rng.next() - 0.5),
        [12, 50],
      );
      const rows = keys(12, 3, 2);
      const dx = tf.grad((xi: tf.Tensor) => tf.sum(tf.mul(hostDropout(xi, 4, rate, rows), w)))(x);
      const want = tf.mul(w, hostDropout(tf.onesLike(x), 4, rate, rows));
      expect(Array.from(dx.dataSync())).toEqual(Array.from(want.dataSync()));
      expect(Array.from(want.dataSync()).some((v) => v === 0)).toBe(true);
      tf.dispose([x, w, dx, want]);
    });
  });
}

describe('hostDropout', () => {
  it('equals the composition x · dropoutScales (the reference every path draws), bit for bit, on cpu and wasm', async () => {
    const rng = createRng(14);
    const values = Float32Array.from({ length: 24 * 45 }, () => (rng.next() - 0.5) * 10);
    const rows = keys(24, 5, 3);
    const want = tf.tidy(() => tf.mul(tf.tensor2d(values, [24, 45]), tf.tensor2d(dropoutScales(17, rate, rows, 45), [24, 45])).dataSync() as Float32Array);
    for (const backend of ['cpu', 'wasm']) {
      expect(await tf.setBackend(backend)).toBe(true);
      const got = tf.tidy(() => hostDropout(tf.tensor2d(values, [24, 45]), 17, rate, rows).dataSync() as Float32Array);
      expect(new Uint32Array(got.buffer)).toEqual(new Uint32Array(want.buffer));
    }
    expect(want.some((v) => v === 0)).toBe(true);
  });

  it('gives the same bits on cpu (the TypeScript loop) and wasm (its SIMD loop), whatever the row width', async () => {
    const rng = createRng(12);
    for (const cols of [100, 103, 3, 1]) {
      // Signed zeros, infinities and NaN too: a dropped one is x · 0, as the loop computes it.
      const values = Float32Array.from({ length: 40 * cols }, (_, i) => [0, -0, Infinity, -Infinity, NaN][i % 97] ?? (rng.next() - 0.5) * 1e3);
      const outs: Float32Array[] = [];
      for (const backend of ['cpu', 'wasm']) {
        expect(await tf.setBackend(backend)).toBe(true);
        if (backend === 'wasm') expect(simdDropoutRow(tf.backend())).not.toBeNull();
        outs.push(tf.tidy(() => hostDropout(tf.tensor2d(values, [40, cols]), 9, rate, keys(40, 8))).dataSync() as Float32Array);
      }
      expect(new Uint32Array(outs[1].buffer)).toEqual(new Uint32Array(outs[0].buffer));
    }
  });
});
