import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { activeProfile, type BackendProfile, detectProfile, useProfile } from '../../backend/profile.ts';
import { createRng } from '../../shared/rng.ts';
import { ADAMW_DEFAULTS, AdamW } from '../../model/adamw.ts';
import { makeConfig } from '../../model/config.ts';
import { disposeParams, initParams, paramsToArrays } from '../../model/params.ts';
import { btLossGradient, pairGroups } from '../../model/loss.ts';
import { accumulate, chunkPasses } from './chunkPasses.ts';
import { zeroLossFree } from './lossFreeGradients.ts';
import { ENGINE, EnergyExchange } from './energyExchange.ts';
import { lossAndGradients } from './gradients.ts';
import { peerWork } from './peerWork.ts';
import { ENGINE_SHARE, halves, sharedLossAndGradients } from './sharedStep.ts';
import { trainStep } from './step.ts';
import type { StepPeer } from './stepPeer.ts';

const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 32, maxLen: 40, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });

function batchOf(seed: number) {
  const rng = createRng(seed);
  const candidates = Array.from({ length: 7 }, () => [63, ...Array.from({ length: 3 + rng.int(30) }, () => rng.int(63))]);
  return { candidates, labels: [1, 0, 0, 1, 0, 1, 0], groupOf: [0, 0, 0, 0, 1, 1, 1] };
}

/** A peer that refuses every part: its work must come back to the engine with the same numbers. */
function failing(): StepPeer {
  const inner = peerWork(Promise.resolve(activeProfile()));
  return { ...inner, energies: () => Promise.reject(new Error('gone')), gradients: () => Promise.reject(new Error('gone')) };
}

// Sums of the same products in another order (a step cut in two parts, each added as one term): float32 rounding,
// relative to the largest value of each gradient, or to a tenth of the largest of all where a gradient is
// about 0 (the energy head's bias: the loss does not move when every energy moves alike, so its gradient is
// a sum of terms that cancel, whose rounding is on the terms' scale, not on the sum's).
const TOLERANCE = 2e-5;

async function worstGap(a: Map<string, tf.Tensor>, b: Map<string, tf.Tensor>): Promise<number> {
  const values = await Promise.all([...a].map(async ([name, t]) => [(await t.data()) as Float32Array, (await b.get(name)!.data()) as Float32Array]));
  const largest = (x: Float32Array) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const floor = Math.max(1e-6, 0.1 * Math.max(...values.map(([x]) => largest(x))));
  let worst = 0;
  for (const [x, y] of values) {
    const scale = Math.max(floor, largest(x));
    for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i] - y[i]) / scale);
  }
  return worst;
}

/** The backend with the packed forward and shared steps (WASM's own; on cpu asked for), whose dropout masks are keyed by candidate. */
async function packedOn(backend: string): Promise<BackendProfile> {
  expect(await tf.setBackend(backend)).toBe(true);
  const profile = { ...detectProfile(backend), packedForward: true, sharedSteps: true };
  useProfile(profile);
  return profile;
}

/** Every value of every gradient equal to the bit (0 differing values), by name. */
async function differing(a: Map<string, tf.Tensor>, b: Map<string, tf.Tensor>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, t] of a) {
    const [x, y] = [(await t.data()) as Float32Array, (await b.get(name)!.data()) as Float32Array];
    out[name] = x.filter((v, i) => !Object.is(v, y[i])).length;
  }
  return out;
}

const none = (grads: Map<string, tf.Tensor>) => Object.fromEntries([...grads.keys()].map((name) => [name, 0]));

describe.each(['cpu', 'wasm'])('a step shared with a peer on %s', (backend) => {
  afterEach(() => useProfile(null));

  it('gives the one-thread loss and gradients to the bit, whoever computes the second part, one pass or micro-batched', async () => {
    const profile = await packedOn(backend);
    const params = initParams(cfg, 3);
    const batch = batchOf(4);
    const model = { cfg, weights: [...(await paramsToArrays(params, activeProfile()))] };
    // On this thread a peer that claims another thread never publishes its energies in time: the one-pass
    // step waits a second, then computes them itself.
    const silent: StepPeer = { ...peerWork(Promise.resolve(activeProfile())), otherThread: true };
    for (const microBatch of [undefined, 3, 2]) {
      const opts = { dropoutSeed: 9, microBatch, profile };
      const alone = await sharedLossAndGradients(cfg, params, batch, opts);
      const lossAlone = (await alone.loss.data())[0];
      // The same maths as the step not cut in two: float rounding apart.
      const uncut = lossAndGradients(cfg, params, batch, opts);
      expect(Math.abs((await uncut.loss.data())[0] - lossAlone)).toBeLessThan(1e-5);
      expect(await worstGap(uncut.grads, alone.grads)).toBeLessThan(TOLERANCE);
      tf.dispose([uncut.loss, ...uncut.grads.values()]);
      for (const peer of [peerWork(Promise.resolve(activeProfile())), failing(), ...(microBatch === undefined ? [silent] : [])]) {
        const shared = await sharedLossAndGradients(cfg, params, batch, opts, { peer, model });
        expect((await shared.loss.data())[0]).toBe(lossAlone);
        expect(await differing(alone.grads, shared.grads)).toEqual(none(alone.grads));
        tf.dispose([shared.loss, ...shared.grads.values()]);
      }
      tf.dispose([alone.loss, ...alone.grads.values()]);
    }
    // A step of one candidate is not shared (nothing to split), and still gives its gradients.
    const single = { candidates: batch.candidates.slice(0, 1), labels: [1], groupOf: [0] };
    const one = lossAndGradients(cfg, params, single, { dropoutSeed: 9, profile });
    const oneShared = await sharedLossAndGradients(cfg, params, single, { dropoutSeed: 9, profile }, { peer: failing(), model });
    expect(await differing(one.grads, oneShared.grads)).toEqual(none(one.grads));
    tf.dispose([one.loss, oneShared.loss, ...one.grads.values(), ...oneShared.grads.values()]);
    // Dropout is on: another seed moves the loss.
    const base = lossAndGradients(cfg, params, batch, { dropoutSeed: 9, profile });
    const other = lossAndGradients(cfg, params, batch, { dropoutSeed: 10, profile });
    expect(Math.abs((await other.loss.data())[0] - (await base.loss.data())[0])).toBeGreaterThan(1e-4);
    tf.dispose([base.loss, other.loss, ...base.grads.values(), ...other.grads.values()]);
    disposeParams(params);
  });

  it("a peer's one-pass half, with the engine's energies in the exchange, is the half this thread computes", async () => {
    const profile = await packedOn(backend);
    const params = initParams(cfg, 3);
    const batch = batchOf(6);
    const opts = { dropoutSeed: 9, profile };
    const alone = await sharedLossAndGradients(cfg, params, batch, opts);
    // The engine's side by hand: its half's energies published first, so the peer on this thread never waits.
    const chunks = halves(batch.candidates);
    const first = chunks[1][0];
    const passes = chunkPasses(cfg, params, batch.candidates, 0, chunks, opts);
    const own = tf.tidy(() => passes.energies(0)).dataSync() as Float32Array;
    const exchange = EnergyExchange.create(batch.candidates.length)!;
    exchange.publish(ENGINE, 2, 0, own);
    const peer = peerWork(Promise.resolve(activeProfile()));
    await peer.load(-1, { cfg, weights: [...(await paramsToArrays(params, activeProfile()))] });
    const part = { candidates: batch.candidates.slice(first).map((c) => Int32Array.from(c)), first, chunks, from: 1, dropoutSeed: 9 };
    const theirs = await peer.onePass(-1, part, {
      labels: Int32Array.from(batch.labels),
      groupOf: Int32Array.from(batch.groupOf),
      exchange: exchange.buffer,
      step: 2,
    });
    await peer.release(-1);
    const all = new Float32Array(batch.candidates.length);
    all.set(own);
    all.set(exchange.read(first, all.length - first), first);
    const dE = btLossGradient(tf.tensor1d(all), pairGroups(batch.labels, batch.groupOf), profile);
    const mine = passes.gradients(0, tf.slice(dE, [0], [first]) as tf.Tensor1D);
    // The step's gradient is the two halves' sum with the loss-free entries zeroed (lossFreeGradients.ts).
    const byHand = zeroLossFree(accumulate(mine, new Map(theirs.map(([name, g]) => [name, tf.tensor(g, params.get(name)!.shape)]))), cfg.dModel);
    expect(await differing(alone.grads, byHand)).toEqual(none(alone.grads));
    tf.dispose([alone.loss, dE, ...alone.grads.values(), ...byHand.values()]);
    disposeParams(params);
  });

  it('trains 20 steps with the lazy embedding to the weights of the one-thread run, to the bit', async () => {
    const profile = await packedOn(backend);
    const runs: Array<Map<string, Float32Array>> = [];
    // No peer; a peer throughout; a peer from step 7 on (as when it first validates the untrained model).
    for (const peerAt of [
      (_: number) => undefined,
      (_: number) => peerWork(Promise.resolve(activeProfile())),
      (s: number) => (s >= 7 ? peerWork(Promise.resolve(activeProfile())) : undefined),
    ]) {
      const params = initParams(cfg, 5);
      const optimizer = new AdamW(params, ADAMW_DEFAULTS, true, profile);
      for (let s = 0; s < 20; s++) {
        const out = await trainStep(cfg, params, optimizer, batchOf(100 + s), { lr: 3e-3, maxGradNorm: 1, dropoutSeed: s, peer: peerAt(s) });
        tf.dispose([out.loss, out.gradNorm, out.clipCoef]);
      }
      optimizer.sync(params);
      runs.push(await paramsToArrays(params, activeProfile()));
      optimizer.dispose();
      disposeParams(params);
    }
    for (const run of runs.slice(1)) {
      for (const [name, want] of runs[0]) expect(run.get(name)!.filter((v, i) => !Object.is(v, want[i])).length, name).toBe(0);
    }
  });
});

describe('a one-pass step cut in two', () => {
  const of = (lengths: number[]) => lengths.map((n) => new Int32Array(n));
  it('cuts at the engine share of the tokens, not at half the candidates', () => {
    expect(ENGINE_SHARE).toBeGreaterThanOrEqual(0.5);
    // 16 candidates, the first eight short: halves by count would give the engine 1,600 of 5,700 tokens.
    const lengths = [...Array<number>(8).fill(200), ...Array<number>(8).fill(512)];
    const [[, cut]] = halves(of(lengths));
    const mine = lengths.slice(0, cut).reduce((a, b) => a + b, 0);
    const all = lengths.reduce((a, b) => a + b, 0);
    // The nearest cut: within one candidate's tokens of the share.
    expect(Math.abs(mine - ENGINE_SHARE * all)).toBeLessThanOrEqual(512 / 2);
    expect(cut).toBe(11);
  });
  it('leaves each side at least one candidate', () => {
    expect(halves(of([5, 500]))).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(halves(of([500, 5]))).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(halves(of([500, 5, 5]))).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(halves(of([5, 5, 500]))).toEqual([
      [0, 2],
      [2, 3],
    ]);
  });
});
