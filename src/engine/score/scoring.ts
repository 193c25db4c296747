/**
 * Eval-mode energies of many candidates (validation, Evaluate, Inspect, Rerank), shared out between this
 * thread and its scoring peers. The peer's own side is train/step/peerWork.ts; the worker pool that runs peers on
 * other cores is src/worker/peers/peerPool.ts.
 */
import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, DEFAULT_PASS_BUDGET_BYTES } from '../backend/profile.ts';
import { modelOps } from '../model/ops.ts';
import type { ModelConfig } from '../model/config.ts';
import { type ParamTensors, energies } from '../model/transebm.ts';
import { activationBytesPerCandidate } from '../model/autoMicroBatch.ts';
import { padBatch } from '../model/batch.ts';
import { padLength } from '../model/shapeBuckets.ts';
import { webgpuScore } from './webgpuScore.ts';
import { yieldToEventLoop } from '../shared/yieldToEventLoop.ts';

/** Slack on top of the wait for a peer's running batch (message hops, a busy event loop). */
const SETTLE_MS = 20;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Names each call's weights at the peers (see ScoringPeer): unique in this thread, which owns its peers. */
let lastCall = 0;

/** At most this many candidates per eval forward pass; long inputs get fewer (see below). */
export const EVAL_BATCH_MAX = 64;

export interface ScoreOptions {
  budgetBytes?: number;
  onProgress?: (done: number, total: number) => void;
  /** Other threads that take batches too (see ScoringPeer). */
  peers?: ReadonlyArray<ScoringPeer>;
  /**
   * The peers take every batch while this thread does other work (trains), awaiting only their replies;
   * it scores a batch itself only once every peer has failed. Without peers it scores them all.
   */
  peersOnly?: boolean;
  /** What runs where, taken once where the call starts, for every batch of it. */
  profile: BackendProfile;
}

interface Batch {
  /** Candidate indices, longest first. */
  idx: number[];
  /** Padded length (bucketed). */
  length: number;
}

/**
 * Candidates longest-first in batches so each batch pads little; a batch holds as many as fit the
 * activation budget at its longest length (64 short answers, or 1–2 at paper size and 2048 tokens).
 */
function planBatches(cfg: ModelConfig, candidates: ReadonlyArray<ArrayLike<number>>, budgetBytes: number): Batch[] {
  const order = candidates.map((_, i) => i).sort((a, b) => candidates[b].length - candidates[a].length);
  const batches: Batch[] = [];
  for (let s = 0; s < order.length;) {
    const fit = Math.floor(budgetBytes / activationBytesPerCandidate(cfg, candidates[order[s]].length));
    const idx = order.slice(s, s + Math.min(EVAL_BATCH_MAX, Math.max(1, fit)));
    s += idx.length;
    batches.push({ idx, length: padLength(candidates[idx[0]].length, cfg.maxLen, false) });
  }
  return batches;
}

/**
 * Eval-mode energies (no dropout) of one batch padded to `length`, read back asynchronously; on WebGPU's
 * replay the batch's shape is recorded once and replayed (webgpuScore.ts).
 */
export async function scoreBatch(
  cfg: ModelConfig,
  params: ParamTensors,
  batch: ReadonlyArray<ArrayLike<number>>,
  length: number,
  profile: BackendProfile,
): Promise<Float32Array> {
  const e = profile.replaySteps
    ? webgpuScore(cfg, params, batch, length, profile)
    : tf.tidy(() => energies(cfg, params, padBatch(batch, cfg.padId, length), { profile }));
  const values = (await e.data()) as Float32Array;
  e.dispose();
  return values.length === batch.length ? values : values.slice(0, batch.length);
}

/**
 * Eval-mode energies of any number of candidates, in input order. Batches go to whoever is free: this
 * thread and the peers (each with two batches in flight, or with peersOnly all of them at once; this
 * call's weights sent first). When this thread runs out of batches it scores those still queued at a peer
 * itself, and those a peer is running once they take twice as long as this thread would, so a slow, late
 * or failing peer never holds the result up.
 */
export async function scoreCandidates(
  cfg: ModelConfig,
  params: ParamTensors,
  candidates: ReadonlyArray<ArrayLike<number>>,
  opts: ScoreOptions,
): Promise<Float32Array> {
  const { profile } = opts;
  const out = new Float32Array(candidates.length);
  const batches = planBatches(cfg, candidates, opts.budgetBytes ?? DEFAULT_PASS_BUDGET_BYTES);
  const delivered = new Uint8Array(batches.length);
  let next = 0;
  let done = 0;
  const deliver = (k: number, values: Float32Array) => {
    if (delivered[k]) return;
    delivered[k] = 1;
    batches[k].idx.forEach((i, j) => (out[i] = values[j]));
    done += batches[k].idx.length;
    opts.onProgress?.(done, candidates.length);
  };
  // This thread's pace (ms per padded token), to tell a peer that is still at work from one that hangs.
  let hereMs = 0;
  let hereTokens = 0;
  const padded = (k: number) => batches[k].idx.length * batches[k].length;
  const here = async (k: number) => {
    const t0 = performance.now();
    const values = await scoreBatch(
      cfg,
      params,
      batches[k].idx.map((i) => candidates[i]),
      batches[k].length,
      profile,
    );
    hereMs += performance.now() - t0;
    hereTokens += padded(k);
    deliver(k, values);
  };
  const peers = batches.length > 1 || opts.peersOnly ? (opts.peers ?? []) : [];
  if (peers.length === 0) {
    for (let k = 0; k < batches.length; k++) await here(k);
    return out;
  }
  const compact = await compactModel(cfg, params, candidates, profile);
  // Every request names this call: another call may load its own weights at the same peers meanwhile.
  const call = ++lastCall;
  let over = false;
  // Per peer, the batches sent and not answered, in order: a peer scores them in that order.
  const inFlight = peers.map(() => [] as number[]);
  // Batches in flight per peer: two, as this thread hands out the next one as soon as a reply comes in.
  // A thread that trains meanwhile (peersOnly) sees replies only between its steps, each many batches
  // long on long answers: it sends every batch at once, shared out evenly.
  const inFlightPerPeer = opts.peersOnly ? Math.ceil(batches.length / peers.length) : 2;
  const replies = new Map<number, Promise<unknown>>();
  const onPeer = (peer: ScoringPeer, p: number): Promise<unknown> => {
    let failed = false;
    const lane = async () => {
      while (!failed && !over && next < batches.length) {
        const k = next++;
        const b = batches[k];
        inFlight[p].push(k);
        const reply = peer
          .score(
            call,
            b.idx.map((i) => compact.renumber(candidates[i])),
            b.length,
          )
          .then((values) => deliver(k, values));
        replies.set(
          k,
          reply.catch(() => undefined),
        );
        try {
          await reply;
        } catch {
          failed = true;
        } finally {
          inFlight[p].splice(inFlight[p].indexOf(k), 1);
        }
      }
    };
    void peer.load(call, compact.model).catch(() => undefined);
    return Promise.all(Array.from({ length: inFlightPerPeer }, lane));
  };
  try {
    // Peers first: each gets its weights and its first batches before this thread's first (synchronous) batch.
    const lanes = peers.map(onPeer);
    if (opts.peersOnly) {
      // A lane ends when the batches run out or its peer fails; what a failed peer held is scored here.
      await Promise.all(lanes);
      for (let k = 0; k < batches.length; k++) if (!delivered[k]) await here(k);
      return out;
    }
    while (next < batches.length) {
      await here(next++);
      // The peers' replies are tasks; on the CPU-memory backends this loop's awaits never let one in.
      await yieldToEventLoop();
    }
    // Out of batches: take over those a peer has not started (queued behind its running one), the last
    // sent first. A running one is waited for, as long as this thread would take for it twice over, and
    // taken over only then: its reply cannot come in while this thread computes, so taking it at once
    // would mostly duplicate it.
    const running = (k: number) => inFlight.some((f) => f[0] === k);
    for (let k = batches.length - 1; k >= 0; k--) {
      if (delivered[k]) continue;
      // Replies that came in while this thread computed are taken first.
      await yieldToEventLoop();
      if (!delivered[k] && !running(k)) await here(k);
    }
    for (let k = 0; k < batches.length; k++) {
      if (delivered[k]) continue;
      if (hereTokens > 0) await Promise.race([replies.get(k), sleep(2 * (hereMs / hereTokens) * padded(k) + SETTLE_MS)]);
      if (!delivered[k]) await here(k);
    }
  } finally {
    // Also when this thread's scoring failed: no peer keeps this call's weights or scores its batches still queued.
    over = true;
    peers.forEach((peer) => peer.release(call));
  }
  return out;
}

/**
 * Another thread that scores batches with its own copy of the weights: how scoring uses a second core
 * (tfjs-wasm's products run on one). Each scoring call hands each peer its model under an id of its own,
 * then batches under that id as they come free, and releases the id when it is done. Calls can overlap
 * (an Inspect while the run validates), and each call compacts the embedding its own way, so a batch
 * must name the weights it is for. A peer that fails hands its batch back and the engine scores it itself.
 */
export interface ScoringPeer {
  load(call: number, model: PeerModel): Promise<void>;
  /** Eval-mode energies of one batch (ids in the numbering of `call`'s model), padded to `length`. */
  score(call: number, batch: Int32Array[], length: number): Promise<Float32Array>;
  /** The call is over: the peer drops its weights, and skips its batches still queued. */
  release(call: number): void;
}

/**
 * The weights a peer needs for one call: every parameter, with the embedding cut to the rows the
 * candidates use (a few thousand of 50,257) and the config's vocabulary and special ids renumbered to match.
 */
export interface PeerModel {
  cfg: ModelConfig;
  weights: Array<[string, Float32Array]>;
}

export interface CompactModel {
  model: PeerModel;
  /** A candidate's ids in the compact numbering. */
  renumber(ids: ArrayLike<number>): Int32Array;
}

/** This call's weights for its peers, and how its candidates' ids map into them. */
export async function compactModel(
  cfg: ModelConfig,
  params: ParamTensors,
  candidates: ReadonlyArray<ArrayLike<number>>,
  profile: BackendProfile,
): Promise<CompactModel> {
  const index = new Map<number, number>();
  const add = (id: number) => {
    if (!index.has(id)) index.set(id, index.size);
  };
  [cfg.clsId, cfg.sepId, cfg.padId].forEach(add);
  for (const c of candidates) for (let t = 0; t < c.length; t++) add(c[t]);
  const rows = tf.tensor1d(Int32Array.from(index.keys()), 'int32');
  const emb = modelOps(profile).gatherTableRows(params.get('emb.weight') as tf.Tensor2D, rows);
  rows.dispose();
  const names = [...params.keys()];
  const values = await Promise.all(names.map((name) => (name === 'emb.weight' ? emb : params.get(name)!).data() as Promise<Float32Array>));
  emb.dispose();
  const renumber = (ids: ArrayLike<number>) => Int32Array.from({ length: ids.length }, (_, t) => index.get(ids[t])!);
  return {
    model: {
      cfg: { ...cfg, vocabSize: index.size, clsId: index.get(cfg.clsId)!, sepId: index.get(cfg.sepId)!, padId: index.get(cfg.padId)! },
      weights: names.map((name, i) => [name, values[i]]),
    },
    renumber,
  };
}
