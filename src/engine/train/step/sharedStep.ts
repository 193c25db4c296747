import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../../backend/profile.ts';
import type { ModelConfig } from '../../model/config.ts';
import { btLoss, btLossGradient, pairGroups } from '../../model/loss.ts';
import type { Params } from '../../model/params.ts';
import { chunkRanges } from '../../model/batch.ts';
import { type ChunkPasses, type GradientOptions, accumulate, chunkPasses } from './chunkPasses.ts';
import { type LossAndGradients, type StepBatch, lossAndGradients } from './gradients.ts';
import type { PeerModel } from '../../score/scoring.ts';
import { ENGINE, EnergyExchange, PEER } from './energyExchange.ts';
import { zeroLossFree } from './lossFreeGradients.ts';
import type { PeerPart, StepPeer } from './stepPeer.ts';

/** Names each step's weights at the peer: negative, as scoring calls (scoring.ts) count up from 1. */
let lastCall = 0;

/** A peer that computes a step's second part, and the step's weights in its numbering. */
export interface StepHelper {
  peer: StepPeer;
  /** The step's weights in the peer's numbering (the candidates' ids already are). */
  model: PeerModel;
}

/**
 * Loss and gradients of one step on the backends that share steps (WASM), with or without a peer on
 * another core. The step is always cut in two parts, from the batch and the micro-batch alone (a step
 * of one chunk in two halves), and every path computes the same numbers in the same float order:
 * - each chunk's energies in a pass of its own (chunkPasses: its masks do not depend on who computes it);
 * - the loss and dL/dE in closed form from all of them;
 * - each part's gradient, the sum in chunk order of ∂(dL/dE_c · E_c)/∂θ over its chunks;
 * - the step's gradient, the first part's plus the second's.
 * So the weights do not depend on whether the peer takes the second part, fails, is late, or is busy
 * elsewhere (validating the untrained model): a run is the same to the bit on one core and on two,
 * whenever the peer comes free. Left out, `helper`: this thread computes both parts. The entries no
 * loss depends on come back exactly 0, once the parts are added (lossFreeGradients.ts).
 */
export async function sharedLossAndGradients(
  cfg: ModelConfig,
  params: Params,
  batch: StepBatch,
  opts: GradientOptions & { profile: BackendProfile },
  helper?: StepHelper,
): Promise<LossAndGradients> {
  const n = batch.candidates.length;
  // One candidate has nothing to share (and lossAndGradients zeroes its loss-free entries itself).
  if (n < 2) return lossAndGradients(cfg, params, batch, opts);
  const { loss, grads } = await splitStep(cfg, params, batch, opts, helper);
  return { loss, grads: zeroLossFree(grads, cfg.dModel) };
}

/** sharedLossAndGradients of two candidates or more, the loss-free entries as computed. */
async function splitStep(
  cfg: ModelConfig,
  params: Params,
  batch: StepBatch,
  opts: GradientOptions & { profile: BackendProfile },
  helper?: StepHelper,
): Promise<LossAndGradients> {
  const n = batch.candidates.length;
  const fitsOnePass = chunkRanges(n, opts.microBatch ?? n).length === 1;
  const chunks = fitsOnePass ? halves(batch.candidates) : chunkRanges(n, opts.microBatch!);
  const from = splitAt(chunks, batch.candidates);
  const step: SplitStep = {
    params,
    batch,
    opts,
    chunks,
    from,
    first: chunks[from][0],
    passes: chunkPasses(cfg, params, batch.candidates, 0, chunks, opts),
    pairs: pairGroups(batch.labels, batch.groupOf),
  };
  if (!fitsOnePass) return twoPasses(step, helper);
  const exchange = helper?.peer.otherThread ? exchangeFor(helper.peer, n) : null;
  // Where threads cannot share memory, the peer's half goes in two passes; on one thread, in one pass each.
  if (helper && !exchange) return twoPasses(step, helper);
  return onePass(step, helper && exchange ? { ...helper, exchange } : undefined);
}

/** A step cut in two parts: chunks [0, from) are this thread's, the rest (from step index `first` on) the peer's. */
interface SplitStep {
  params: Params;
  batch: StepBatch;
  opts: GradientOptions & { profile: BackendProfile };
  chunks: Array<[number, number]>;
  from: number;
  first: number;
  passes: ChunkPasses;
  pairs: ReturnType<typeof pairGroups>;
}

/** The peer's part: its candidates as copies (they are posted), with the whole step's chunks for their masks. */
function peerPart(s: SplitStep): PeerPart {
  return {
    candidates: s.batch.candidates.slice(s.first).map((c) => Int32Array.from(c)),
    first: s.first,
    chunks: s.chunks,
    from: s.from,
    dropoutSeed: hostSeed(s.opts.dropoutSeed),
  };
}

/** The part's gradient computed here: its chunks' in order, each with its slice of dL/dE. */
function partGradients(s: SplitStep, chunks: number[], dE: tf.Tensor1D): Map<string, tf.Tensor> {
  let grads: Map<string, tf.Tensor> | null = null;
  for (const c of chunks) {
    const [from, to] = s.chunks[c];
    const up = tf.slice(dE, [from], [to - from]) as tf.Tensor1D;
    grads = accumulate(grads, s.passes.gradients(c, up));
    up.dispose();
  }
  return grads!;
}

/**
 * Energies first, chunk by chunk (the peer's part there, or here), then dL/dE, then each part's
 * gradients (the peer's there, or here).
 */
async function twoPasses(s: SplitStep, helper: StepHelper | undefined): Promise<LossAndGradients> {
  const mine = range(0, s.from);
  const theirs = range(s.from, s.chunks.length);
  const part = helper ? peerPart(s) : null;
  const call = --lastCall;
  // Posted together, before this thread's synchronous work: the peer handles them in order meanwhile.
  const loaded = helper?.peer.load(call, helper.model);
  loaded?.catch(() => undefined);
  const theirEnergies = helper && part ? settle(helper.peer.energies(call, part)) : Promise.resolve(null);
  try {
    const e = tf.tidy(() => allEnergies(s.passes, mine));
    const all = await theirEnergies.then(
      (values) => tf.tidy(() => tf.concat([e, values ? tf.tensor1d(values) : allEnergies(s.passes, theirs)])) as tf.Tensor1D,
    );
    e.dispose();
    const loss = btLoss(all, s.pairs, s.opts.profile);
    const dE = btLossGradient(all, s.pairs, s.opts.profile);
    all.dispose();
    const theirGrads = helper && part ? settle(helper.peer.gradients(call, part, (dE.dataSync() as Float32Array).slice(s.first))) : Promise.resolve(null);
    const grads = partGradients(s, mine, dE);
    const fromPeer = await theirGrads;
    const second = fromPeer ? asTensors(s.params, fromPeer) : partGradients(s, theirs, dE);
    dE.dispose();
    return { loss, grads: accumulate(grads, second) };
  } finally {
    helper?.peer.release(call);
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
 * A step that fits one pass, cut in two halves of one pass each: each half's gradient is taken on a
 * tape that computes its energies, learns the other half's, and takes dL/dE from all of them (no second
 * forward). With a peer on another thread, both halves run at once, the energies crossing through the
 * exchange; if the peer's do not come in time, or its gradients fail, this thread computes its half.
 * Alone, this thread computes the second half's energies first (a forward without gradients).
 */
async function onePass(s: SplitStep, helper?: StepHelper & { exchange: EnergyExchange }): Promise<LossAndGradients> {
  const n = s.batch.candidates.length;
  const { first, passes, pairs, opts } = s;
  const theirsHere = () => tf.tidy(() => passes.energies(1)).dataSync() as Float32Array;
  // Steps go up by two: a step given up is marked past (step + 1) without taking the next one's number.
  const step = (lastExchangeStep += 2);
  const call = --lastCall;
  let reply: Promise<Array<[string, Float32Array]> | null> = Promise.resolve(null);
  if (helper) {
    const { peer, model, exchange } = helper;
    peer.load(call, model).catch(() => undefined);
    reply = settle(
      peer.onePass(call, peerPart(s), { labels: Int32Array.from(s.batch.labels), groupOf: Int32Array.from(s.batch.groupOf), exchange: exchange.buffer, step }),
    );
  }
  // Alone: the second half's energies before the first half's tape.
  let theirs: Float32Array | null = helper ? null : theirsHere();
  let fromPeer = false;
  let published = false;
  let all: Float32Array | null = null;
  try {
    const grads = passes.gradients(0, (own) => {
      const t0 = performance.now();
      const ownValues = own.dataSync() as Float32Array;
      if (helper) {
        helper.exchange.publish(ENGINE, step, 0, ownValues);
        published = true;
        const waited = helper.exchange.wait(PEER, step, Math.max(1_000, PEER_SLACK * (performance.now() - t0)));
        fromPeer = waited === 'ready';
        theirs = fromPeer ? helper.exchange.read(first, n - first) : theirsHere();
      }
      all = new Float32Array(n);
      all.set(ownValues);
      all.set(theirs!, first);
      return tf.tidy(() => tf.slice(btLossGradient(tf.tensor1d(all!), pairs, opts.profile), [0], [first]) as tf.Tensor1D);
    });
    const energies = tf.tensor1d(all!);
    const loss = btLoss(energies, pairs, opts.profile);
    // The peer's half: its reply, or (it did not read our energies in time, or failed) computed here.
    const second = fromPeer ? await reply : null;
    const secondGrads = second ? asTensors(s.params, second) : secondHalf(s, energies);
    energies.dispose();
    return { loss, grads: accumulate(grads, secondGrads) };
  } finally {
    if (helper && !published) helper.exchange.publish(ENGINE, step + 1, 0, []);
    helper?.peer.release(call);
  }
}

/** The second half's gradient computed here, with dL/dE from the step's energies (a one-pass tape of its own). */
function secondHalf(s: SplitStep, energies: tf.Tensor1D): Map<string, tf.Tensor> {
  const n = s.batch.candidates.length;
  const dE = tf.tidy(() => tf.slice(btLossGradient(energies, s.pairs, s.opts.profile), [s.first], [n - s.first]) as tf.Tensor1D);
  const grads = s.passes.gradients(1, dE);
  dE.dispose();
  return grads;
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
  return [
    [0, cut],
    [cut, candidates.length],
  ];
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
