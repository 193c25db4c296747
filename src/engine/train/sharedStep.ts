import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import type { ModelConfig } from '../model/config.ts';
import { btLoss, btLossGradient, pairGroups } from '../model/loss.ts';
import type { Params } from '../model/params.ts';
import { chunkRanges } from './batch.ts';
import { type ChunkPasses, type GradientOptions, accumulate, chunkPasses, gradientsByName } from './chunkPasses.ts';
import { type LossAndGradients, type StepBatch, lossAndGradients } from './gradients.ts';
import type { PeerModel } from './scoring.ts';
import { ENGINE, EnergyExchange, PEER } from './energyExchange.ts';
import type { PeerPart, StepPeer } from './stepPeer.ts';

/** Names each step's weights at the peer: negative, as scoring calls (scoring.ts) count up from 1. */
let lastCall = 0;

/**
 * Loss and gradients of one step with a peer on another core taking the later half of its chunks
 * (data-parallel over the group's candidates): both compute their chunks' energies, this thread the
 * loss and dL/dE, then both backpropagate their chunks and the peer's gradients are added to these.
 * The masks of a chunk do not depend on who computes it (chunkPasses), so the result is the one-thread
 * step's up to the order of float sums. A step of one chunk is cut in two. `model`: the step's weights
 * in the peer's numbering (the candidates' ids already are). A peer that fails hands its part back:
 * this thread computes it, with the same numbers.
 */
export async function sharedLossAndGradients(cfg: ModelConfig, params: Params, batch: StepBatch, opts: GradientOptions & { profile: BackendProfile }, peer: StepPeer, model: PeerModel): Promise<LossAndGradients> {
  const n = batch.candidates.length;
  // One candidate has nothing to share.
  if (n < 2) return lossAndGradients(cfg, params, batch, opts);
  let chunks = chunkRanges(n, opts.microBatch ?? n);
  const exchange = chunks.length === 1 && peer.otherThread ? exchangeFor(peer, n) : null;
  if (chunks.length === 1) chunks = halves(batch.candidates);
  if (exchange) return onePass(cfg, params, batch, opts, peer, model, chunks, exchange);
  const from = splitAt(chunks, batch.candidates);
  const mine = range(0, from);
  const theirs = range(from, chunks.length);
  const first = chunks[from][0];
  const part: PeerPart = { candidates: batch.candidates.slice(first).map((c) => Int32Array.from(c)), first, chunks, from, dropoutSeed: hostSeed(opts.dropoutSeed) };
  const passes = chunkPasses(cfg, params, batch.candidates, 0, chunks, opts);
  const call = --lastCall;
  // Posted together, before this thread's synchronous work: the peer handles them in order meanwhile.
  const loaded = peer.load(call, model);
  const theirEnergies = peer.energies(call, part);
  loaded.catch(() => undefined);
  try {
    const e = tf.tidy(() => allEnergies(passes, mine));
    const all = await settle(theirEnergies).then((values) => tf.tidy(() => tf.concat([e, values ? tf.tensor1d(values) : allEnergies(passes, theirs)])) as tf.Tensor1D);
    e.dispose();
    const pairs = pairGroups(batch.labels, batch.groupOf);
    const loss = btLoss(all, pairs, opts.profile);
    const dE = btLossGradient(all, pairs, opts.profile);
    all.dispose();
    const upstream = dE.dataSync() as Float32Array;
    const theirGrads = settle(peer.gradients(call, part, upstream.slice(first)));
    const chunkGradients = (c: number) => {
      const [s, e] = chunks[c];
      const up = tf.slice(dE, [s], [e - s]) as tf.Tensor1D;
      const g = passes.gradients(c, up);
      up.dispose();
      return g;
    };
    let grads: Map<string, tf.Tensor> | null = null;
    for (const c of mine) grads = accumulate(grads, chunkGradients(c));
    const fromPeer = await theirGrads;
    if (fromPeer) grads = accumulate(grads, asTensors(params, fromPeer));
    else for (const c of theirs) grads = accumulate(grads, chunkGradients(c));
    dE.dispose();
    return { loss, grads: grads! };
  } finally {
    peer.release(call);
  }
}

/** Waits for the peer's energies at most this many times as long as this thread's own took (then computes them). */
const PEER_SLACK = 4;
const exchanges = new WeakMap<StepPeer, EnergyExchange>();
let lastExchangeStep = 0;

/** The peer's exchange for a step of n candidates; null where threads cannot share memory. */
function exchangeFor(peer: StepPeer, n: number): EnergyExchange | null {
  let exchange = exchanges.get(peer);
  if (!exchange || exchange.capacity < n) {
    const made = EnergyExchange.create(Math.max(n, 1024));
    if (!made) return null;
    exchanges.set(peer, (exchange = made));
  }
  return exchange;
}

/**
 * A step that fits one pass, shared in one pass: each side records its chunk's energies, publishes them
 * to the exchange and reads the other's mid-tape, takes the whole step's loss with the other's energies
 * as constants and backpropagates through its own. The sum of both sides' gradients is the step's, with
 * no second forward. If the peer's energies do not come in time, this thread computes them on its tape
 * (the whole gradient, the peer's reply unused); if its gradients fail, it computes their chunk's.
 */
async function onePass(
  cfg: ModelConfig,
  params: Params,
  batch: StepBatch,
  opts: GradientOptions & { profile: BackendProfile },
  peer: StepPeer,
  model: PeerModel,
  chunks: Array<[number, number]>,
  exchange: EnergyExchange,
): Promise<LossAndGradients> {
  const n = batch.candidates.length;
  const first = chunks[1][0];
  const part: PeerPart = { candidates: batch.candidates.slice(first).map((c) => Int32Array.from(c)), first, chunks, from: 1, dropoutSeed: hostSeed(opts.dropoutSeed) };
  const passes = chunkPasses(cfg, params, batch.candidates, 0, chunks, opts);
  const pairs = pairGroups(batch.labels, batch.groupOf);
  // Steps go up by two: a step given up is marked past (step + 1) without taking the next one's number.
  const step = (lastExchangeStep += 2);
  const call = --lastCall;
  const loaded = peer.load(call, model);
  const reply = peer.onePass(call, part, { labels: Int32Array.from(batch.labels), groupOf: Int32Array.from(batch.groupOf), exchange: exchange.buffer, step });
  loaded.catch(() => undefined);
  reply.catch(() => undefined);
  let published = false;
  let energies: Float32Array | null = null;
  try {
    const { value: loss, grads: taped } = gradientsByName(params, () => {
      const t0 = performance.now();
      const own = passes.energies(0);
      const ownValues = own.dataSync() as Float32Array;
      exchange.publish(ENGINE, step, 0, ownValues);
      published = true;
      const waited = exchange.wait(PEER, step, Math.max(1_000, PEER_SLACK * (performance.now() - t0)));
      if (waited !== 'ready') return btLoss(tf.concat([own, passes.energies(1)]) as tf.Tensor1D, pairs, opts.profile);
      const theirs = exchange.read(first, n - first);
      energies = new Float32Array(n);
      energies.set(ownValues);
      energies.set(theirs, first);
      return btLoss(tf.concat([own, tf.tensor1d(theirs)]) as tf.Tensor1D, pairs, opts.profile);
    });
    let grads = taped;
    if (energies === null) return { loss, grads };
    const fromPeer = await settle(reply);
    if (fromPeer) return { loss, grads: accumulate(grads, asTensors(params, fromPeer)) };
    // The peer read our energies but did not answer: its chunk's gradient with the same dL/dE.
    const dE = tf.tidy(() => tf.slice(btLossGradient(tf.tensor1d(energies!), pairs, opts.profile), [first], [n - first]) as tf.Tensor1D);
    grads = accumulate(grads, passes.gradients(1, dE));
    dE.dispose();
    return { loss, grads };
  } finally {
    if (!published) exchange.publish(ENGINE, step + 1, 0, []);
    peer.release(call);
  }
}

/**
 * The engine's share of a shared step's tokens. The peer starts later (it first takes in the step's
 * weights) and answers later (its gradients are copied over): with equal tokens the engine waited about
 * 100 ms a step for it (long answers, small preset, 2-core bench, 2026-11-27).
 */
export const ENGINE_SHARE = 0.52;

/**
 * A step of one chunk cut in two at the engine's share of its tokens (about each side's time), at least
 * one candidate each: halves by count left one side up to a fifth longer on long answers of uneven lengths.
 */
export function halves(candidates: ReadonlyArray<ArrayLike<number>>): Array<[number, number]> {
  const cut = splitAt(chunkRanges(candidates.length, 1), candidates);
  return [[0, cut], [cut, candidates.length]];
}

/** The first chunk of the peer's part: the engine's share of the step's tokens before it (the nearest cut), at least one chunk each. */
function splitAt(chunks: Array<[number, number]>, candidates: ReadonlyArray<ArrayLike<number>>): number {
  const tokens = chunks.map(([s, e]) => candidates.slice(s, e).reduce((a, c) => a + c.length, 0));
  const target = ENGINE_SHARE * tokens.reduce((a, b) => a + b, 0);
  let k = 0;
  let done = 0;
  while (k < chunks.length - 1 && done + tokens[k] / 2 < target) done += tokens[k++];
  return Math.max(1, k);
}

function allEnergies(passes: ChunkPasses, chunks: number[]): tf.Tensor1D {
  return tf.concat(chunks.map((c) => passes.energies(c))) as tf.Tensor1D;
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

/** The peer's gradients as tensors of their parameters' shapes. */
function asTensors(params: Params, arrays: Array<[string, Float32Array]>): Map<string, tf.Tensor> {
  return new Map(arrays.map(([name, g]) => [name, tf.tensor(g, params.get(name)!.shape)]));
}

/** The value, or null when the peer failed (its part is then computed here). */
function settle<T>(p: Promise<T>): Promise<T | null> {
  return p.catch(() => null);
}

/** A peer gets the step's seed as a number: shared steps run on the host backends, whose seeds never live on a device. */
function hostSeed(seed: GradientOptions['dropoutSeed']): number | undefined {
  if (typeof seed === 'object') throw new Error('a shared step needs its dropout seed as a number');
  return seed;
}
