import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { btLoss, btLossGradient, pairGroups } from './loss.ts';
import { activeProfile } from '../backend/profile.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** The loss and dL/dE straight from the definition, in float64. */
function reference(e: ArrayLike<number>, labels: number[], groupOf: number[]): { loss: number; grad: Float64Array } {
  const ids = [...new Set(groupOf)].filter((g) => groupOf.some((h, i) => h === g && labels[i] === 1) && groupOf.some((h, i) => h === g && labels[i] === 0));
  const grad = new Float64Array(e.length);
  let loss = 0;
  for (const g of ids) {
    const pos = labels.flatMap((l, i) => (l === 1 && groupOf[i] === g ? [i] : []));
    const neg = labels.flatMap((l, i) => (l === 0 && groupOf[i] === g ? [i] : []));
    const w = 1 / (pos.length * neg.length * ids.length);
    for (const i of pos) {
      for (const j of neg) {
        const d = e[i] - e[j];
        loss += w * Math.log1p(Math.exp(d));
        const s = w / (1 + Math.exp(-d));
        grad[i] += s;
        grad[j] -= s;
      }
    }
  }
  return { loss, grad };
}

function randomStep(sizes: number[], seed: number) {
  const rng = createRng(seed);
  const labels: number[] = [];
  const groupOf: number[] = [];
  sizes.forEach((n, g) => {
    for (let i = 0; i < n; i++) {
      labels.push(rng.int(2));
      groupOf.push(g);
    }
  });
  // Interleave two groups, so nothing relies on a group's candidates being contiguous.
  if (groupOf.length > 3) [groupOf[1], groupOf[groupOf.length - 2]] = [groupOf[groupOf.length - 2], groupOf[1]];
  const e = Array.from({ length: labels.length }, () => (rng.next() - 0.5) * 6);
  return { labels, groupOf, e };
}

describe('Bradley-Terry loss per group', () => {
  it('matches the definition: value, closed-form dL/dE and the gradient on the tape', async () => {
    // A single-label group (all wrong), a 1-vs-many group, and larger mixed ones.
    const { labels, groupOf, e } = randomStep([5, 7, 3, 9, 2], 11);
    const inGroup = (g: number) => groupOf.flatMap((h, i) => (h === g ? [i] : []));
    for (const i of inGroup(0)) labels[i] = 0;
    inGroup(3).forEach((i, k) => (labels[i] = k === 0 ? 1 : 0));
    const pairs = pairGroups(labels, groupOf);
    const ref = reference(e, labels, groupOf);
    expect(pairs.groups.length).toBeGreaterThanOrEqual(3);
    const et = tf.tensor1d(e);
    const loss = btLoss(et, pairs, activeProfile());
    const closed = btLossGradient(et, pairs, activeProfile());
    const taped = tf.grad((x: tf.Tensor) => btLoss(x as tf.Tensor1D, pairs, activeProfile()))(et);
    expect((await loss.data())[0]).toBeCloseTo(ref.loss, 6);
    for (const g of [await closed.data(), await taped.data()]) {
      for (let i = 0; i < e.length; i++) expect(Math.abs(g[i] - ref.grad[i])).toBeLessThan(1e-7);
    }
    // Candidates of the single-label group get no gradient.
    const closedValues = await closed.data();
    expect(inGroup(0).map((i) => closedValues[i])).toEqual([0, 0, 0, 0, 0]);
    tf.dispose([et, loss, closed, taped]);
  });

  it('is zero, with a zero gradient, when no group has both labels', async () => {
    const pairs = pairGroups([1, 1, 0], [0, 0, 1]);
    const e = tf.tensor1d([0.3, -2, 5]);
    const loss = btLoss(e, pairs, activeProfile());
    const grad = tf.grad((x: tf.Tensor) => btLoss(x as tf.Tensor1D, pairs, activeProfile()))(e);
    expect((await loss.data())[0]).toBe(0);
    expect(Array.from(await grad.data())).toEqual([0, 0, 0]);
    tf.dispose([e, loss, grad]);
  });

  it('holds one group pair matrix at a time: 16 groups of 16 stay far below one 256×256 matrix', async () => {
    const { labels, groupOf, e } = randomStep(
      Array.from({ length: 16 }, () => 16),
      5,
    );
    const pairs = pairGroups(labels, groupOf);
    const et = tf.tensor1d(e);
    const before = tf.memory().numTensors;
    const info = await tf.profile(() => {
      const taped = tf.grad((x: tf.Tensor) => btLoss(x as tf.Tensor1D, pairs, activeProfile()))(et);
      const closed = btLossGradient(et, pairs, activeProfile());
      tf.dispose([taped, closed]);
    });
    expect(tf.memory().numTensors).toBe(before);
    const dense = 256 * 256 * 4;
    // A group of 16 has at most 8×8 = 64 pairs: kilobytes, where a dense N×N matrix is 256 KiB.
    expect(info.peakBytes).toBeLessThan(dense / 16);
    et.dispose();
  });
});
