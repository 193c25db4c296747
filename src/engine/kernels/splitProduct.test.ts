import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../data/rng.ts';
import { makeConfig } from '../model/config.ts';
import { initParams } from '../model/params.ts';
import { lossAndGradients } from '../train/gradients.ts';
import { matMul } from './matmul.ts';
import { MatMulPeer, type ProductFn, createMatMulLink, serveMatMul } from './matmulPeer.ts';
import { peerProduct, setMatMulPeer, withoutMatMulPeer } from './splitProduct.ts';

// The peer is served on this thread right after each job is posted (the same serve loop and product
// the matmul worker runs, one job at a time): this checks the split, the hand-over and the join; the
// browser test e2e/matmulPeer.spec.ts runs the real worker on another core.
const rng = createRng(11);
const random = (shape: number[]) => tf.tensor(Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.next() - 0.5), shape);

function installPeer(product: ProductFn = peerProduct): { splits: () => number; peer: MatMulPeer } {
  const link = createMatMulLink()!;
  let splits = 0;
  const peer = new MatMulPeer(link, () => serveMatMul(link, product));
  setMatMulPeer(peer, () => splits++);
  return { splits: () => splits, peer };
}

beforeAll(async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
});
afterEach(() => setMatMulPeer(null));

describe('products split with the matmul peer (WASM)', () => {
  it('give exactly the numbers of one product, plain and transposed, forward and gradient', () => {
    const a = random([300, 96]);
    const b = random([96, 200]);
    const c = random([200, 96]);
    const alone = [matMul(a, b), matMul(a, c, false, true), matMul(b, a, true, true)].map((t) => Array.from(t.dataSync()));
    const grad = (x: tf.Tensor) => tf.grad((y: tf.Tensor) => tf.sum(tf.square(matMul(y, b))))(x);
    const gradAlone = Array.from(grad(a).dataSync());
    const { splits } = installPeer();
    const shared = [matMul(a, b), matMul(a, c, false, true), matMul(b, a, true, true)].map((t) => Array.from(t.dataSync()));
    expect(splits()).toBe(3);
    expect(shared).toEqual(alone);
    expect(Array.from(grad(a).dataSync())).toEqual(gradAlone);
    expect(splits()).toBeGreaterThan(3);
  });

  it('leave the loss and every gradient of a training step unchanged', () => {
    const cfg = makeConfig({ vocabSize: 500, dModel: 64, nHeads: 2, nLayers: 2, ffnDim: 256, maxLen: 256, dropout: 0.1, clsId: 499, sepId: 499, padId: 499 });
    const params = initParams(cfg, 3);
    const candidates = [150, 90, 200, 120].map((n) => Int32Array.from({ length: n }, (_, i) => (i === 0 ? 499 : 1 + ((i * 37 + n) % 490))));
    const batch = { candidates, labels: [1, 0, 0, 1], groupOf: [0, 0, 0, 0] };
    const step = () => tf.tidy(() => {
      const { loss, grads } = lossAndGradients(cfg, params, batch, { dropoutSeed: 7 });
      return [loss, ...[...grads.keys()].sort().map((k) => grads.get(k)!)].map((t) => Array.from(t.dataSync()));
    });
    const alone = step();
    const { splits } = installPeer();
    const shared = step();
    expect(splits()).toBeGreaterThan(10);
    expect(shared).toEqual(alone);
  });

  it('fall back to this thread when the peer fails, and stop using it', () => {
    const a = random([128, 128]);
    const b = random([128, 256]);
    const want = Array.from(tf.matMul(a, b).dataSync());
    const { splits, peer } = installPeer(() => {
      throw new Error('peer out of memory');
    });
    expect(Array.from(matMul(a, b).dataSync())).toEqual(want);
    expect(peer.alive).toBe(false);
    expect(Array.from(matMul(a, b).dataSync())).toEqual(want);
    expect(splits()).toBe(0);
  });

  it('keep small products and paused stretches on this thread', async () => {
    const { splits } = installPeer();
    matMul(random([64, 32]), random([32, 64]));
    expect(splits()).toBe(0);
    await withoutMatMulPeer(async () => matMul(random([256, 128]), random([128, 256])));
    expect(splits()).toBe(0);
    matMul(random([256, 128]), random([128, 256]));
    expect(splits()).toBe(1);
  });
});
