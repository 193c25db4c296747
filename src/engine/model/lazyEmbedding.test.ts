import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { readModel, writeModel } from '../io/modelFile.ts';
import { adamwArrays } from '../kernels/adamw/host.ts';
import { maxAbsDiff } from '../testing/allclose.ts';
import { FLOAT32_TOLERANCE } from '../testing/tolerances.ts';
import { trainStep } from '../train/step/step.ts';
import { AdamW } from './adamw.ts';
import { makeConfig } from './config.ts';
import { LazyEmbeddingAdam } from './lazyEmbedding.ts';
import { disposeParams, initParams, paramsToArrays } from './params.ts';
import { cosineWithWarmup } from './schedule.ts';
import { activeProfile } from '../backend/profile.ts';

const hyper = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1 };

/** Which tokens step s uses: a first set, then a disjoint one, then the first again, with a few strays. */
function tokensOf(s: number, rng: ReturnType<typeof createRng>, vocab: number): number[] {
  const phase = Math.floor(s / 20) % 3;
  const lo = phase === 1 ? vocab / 2 : 1;
  const out = Array.from({ length: 12 }, () => lo + rng.int(vocab / 4));
  if (rng.next() < 0.3) out.push(1 + rng.int(vocab - 2));
  return out;
}

describe('lazy embedding AdamW equals full-vocabulary AdamW', () => {
  it('on plain arrays: 300 steps of sparse gradients, varying lr, rows that appear, vanish and return', () => {
    const rows = 64;
    const width = 5;
    const rng = createRng(11);
    const init = Float32Array.from({ length: rows * width }, () => rng.next() * 2 - 1);
    const dense = { p: init.slice(), m: new Float32Array(init.length), v: new Float32Array(init.length) };
    const lazy = new LazyEmbeddingAdam(init.slice(), rows, width, hyper);
    for (let s = 0; s < 300; s++) {
      const used = [...new Set(tokensOf(s, rng, rows))].sort((a, b) => a - b);
      const g = Float32Array.from({ length: used.length * width }, () => (rng.next() - 0.5) * 0.2);
      const full = new Float32Array(rows * width);
      used.forEach((r, k) => full.set(g.subarray(k * width, (k + 1) * width), r * width));
      const lr = cosineWithWarmup(s, 1e-2, 30, 300);
      adamwArrays(dense.p, dense.m, dense.v, full, 0.8, { ...hyper, lr, t: s + 1 });
      lazy.step(used, g, 0.8, lr);
    }
    const got = lazy.flush();
    expect(maxAbsDiff(got, dense.p).max).toBeLessThan(1e-6);
    expect(maxAbsDiff(lazy.m, dense.m).max).toBeLessThan(1e-9);
    expect(maxAbsDiff(lazy.v, dense.v).max).toBeLessThan(1e-9);
    // The run did move the weights, so the comparison above is not between two untouched tables.
    expect(maxAbsDiff(got, init).max).toBeGreaterThan(0.1);
  });

  it('saves the moments of the touched rows only, and a run restored from it (or from a whole state) goes on exactly', () => {
    const rows = 64;
    const width = 5;
    const rng = createRng(12);
    const init = Float32Array.from({ length: rows * width }, () => rng.next() * 2 - 1);
    const steps = Array.from({ length: 80 }, (_, s) => {
      const used = [...new Set(tokensOf(s, rng, rows).filter((r) => r < rows / 2 || s > 40))].sort((a, b) => a - b);
      return { used, g: Float32Array.from({ length: used.length * width }, () => (rng.next() - 0.5) * 0.2), lr: cosineWithWarmup(s, 1e-2, 8, 80) };
    });
    const run = (lazy: LazyEmbeddingAdam, from: number, to: number) => steps.slice(from, to).forEach(({ used, g, lr }) => lazy.step(used, g, 0.8, lr));
    // The straight run brings its rows current at step 30 too, as taking a checkpoint does: catching
    // up in two legs rounds differently from one.
    const straight = new LazyEmbeddingAdam(init.slice(), rows, width, hyper);
    run(straight, 0, 30);
    straight.flush();
    run(straight, 30, 80);
    const first = new LazyEmbeddingAdam(init.slice(), rows, width, hyper);
    run(first, 0, 30);
    const state = first.exportState();
    const touched = state.touched.reduce((a, b) => a + b, 0);
    expect(touched).toBeGreaterThan(0);
    expect(touched).toBeLessThan(rows);
    expect(state.m.length).toBe(touched * width);
    const table = first.flush().slice();
    const whole = { ...state, m: first.m.slice(), v: first.v.slice() };
    for (const saved of [state, whole]) {
      const resumed = new LazyEmbeddingAdam(table.slice(), rows, width, hyper);
      resumed.restore(saved);
      run(resumed, 30, 80);
      expect(Array.from(resumed.flush())).toEqual(Array.from(straight.flush()));
      expect(Array.from(resumed.m)).toEqual(Array.from(straight.m));
    }
    expect(() => new LazyEmbeddingAdam(table.slice(), rows, width, hyper).restore({ ...state, m: state.m.subarray(width) })).toThrow(/does not fit this table/);
  });

  for (const backend of ['cpu', 'wasm']) {
    it(`on ${backend}: the exported model after 60 training steps equals the full-vocabulary run within the fixtures' tolerance`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const cfg = makeConfig({ vocabSize: 200, dModel: 16, nHeads: 2, nLayers: 1, maxLen: 24, dropout: 0.1, clsId: 199, sepId: 199, padId: 199 });
      const exported: Array<Map<string, Float32Array>> = [];
      let lrSum = 0;
      for (const lazyEmbedding of [true, false]) {
        const rng = createRng(5);
        const params = initParams(cfg, 3);
        const optimizer = new AdamW(params, hyper, lazyEmbedding, activeProfile());
        expect(optimizer.lazy !== null).toBe(lazyEmbedding);
        for (let s = 0; s < 60; s++) {
          const candidates = [0, 1, 2, 3].map(() => [199, ...tokensOf(s, rng, 200).slice(0, 4 + rng.int(8))]);
          const batch = { candidates, labels: [1, 0, 1, 0], groupOf: [0, 0, 0, 0] };
          const lr = cosineWithWarmup(s, 5e-3, 6, 60);
          if (lazyEmbedding) lrSum += lr;
          const out = await trainStep(cfg, params, optimizer, batch, { lr, maxGradNorm: 0.5, dropoutSeed: s });
          tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
        }
        optimizer.sync(params);
        const bytes = writeModel({ cfg, tensors: await paramsToArrays(params, activeProfile()), metadata: {} });
        exported.push(readModel(bytes.buffer as ArrayBuffer, { copy: true }).tensors);
        optimizer.dispose();
        disposeParams(params);
      }
      const [lazy, full] = exported;
      expect([...lazy.keys()]).toEqual([...full.keys()]);
      for (const [name, want] of full) {
        const got = lazy.get(name)!;
        // Exactly-zero true gradients (attention key bias, head.3.bias) turn float noise into Adam steps of
        // up to lr each, in either direction: those entries may differ by 2·Σlr (the fixtures' zeroGradParam
        // rule, over 60 steps instead of 2); every other entry within `param`.
        const zeroGrad = (i: number) => name === 'head.3.bias' || (name.endsWith('in_proj_bias') && i >= cfg.dModel && i < 2 * cfg.dModel);
        let worst = 0;
        let worstZero = 0;
        for (let i = 0; i < want.length; i++) {
          const e = Math.abs(got[i] - want[i]);
          if (zeroGrad(i)) worstZero = Math.max(worstZero, e);
          else worst = Math.max(worst, e);
        }
        expect(worst, name).toBeLessThan(FLOAT32_TOLERANCE.param);
        expect(worstZero, `${name} (zero-gradient entries)`).toBeLessThanOrEqual(2 * lrSum);
      }
    });
  }
});
