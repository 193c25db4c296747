import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig } from '../model/config.ts';
import { type Params, disposeParams, initParams } from '../model/params.ts';
import { activationBytesPerCandidate } from '../model/autoMicroBatch.ts';
import { peerWork } from '../train/step/peerWork.ts';
import { type ScoreOptions, type ScoringPeer, compactModel, scoreCandidates } from './scoring.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 50, dModel: 8, nHeads: 2, nLayers: 2, maxLen: 40, dropout: 0.2, clsId: 49, sepId: 49, padId: 49 });
/** About two long candidates a batch: 40 candidates make some twenty batches to share out. */
const budgetBytes = 2 * activationBytesPerCandidate(cfg, 33);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** 40 candidates; `shift` changes which token ids they use, so two sets compact to different numberings. */
const candidatesOf = (shift: number) =>
  Array.from({ length: 40 }, (_, i) => [49, ...Array.from({ length: 3 + ((i * 7) % 30) }, (_, t) => 1 + ((t * 3 + i * 5 + shift) % (20 + shift)))]);

const hop = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/**
 * The real peer code behind a worker-like boundary: each request and each reply takes a task to cross
 * (as a worker's messages do, in order), so two calls' requests interleave in the peer's queue.
 * `calls` lists, in the order the peer received them, the call of every batch.
 */
function workerLikePeer() {
  const inner = peerWork(Promise.resolve(activeProfile()));
  const calls: number[] = [];
  const released: Promise<void>[] = [];
  const peer: ScoringPeer = {
    load: (call, model) => hop().then(() => inner.load(call, model)),
    score: async (call, batch, length) => {
      await hop();
      calls.push(call);
      const values = await inner.score(call, batch, length);
      await hop();
      return values;
    },
    release: (call) => void released.push(hop().then(() => inner.release(call))),
  };
  return { peer, calls, inner, settled: () => Promise.all(released) };
}

/** How many energies differ from the call run alone. Same batches, same kernels wherever scored: exactly equal. */
const wrong = (got: Float32Array, want: Float32Array) => got.filter((e, i) => e !== want[i]).length;
/** Times a peer switched from one call's batches to another's: 2 or more means the calls' batches interleaved there. */
const switches = (calls: number[]) => calls.filter((c, i) => i > 0 && c !== calls[i - 1]).length;

describe('overlapping scoring calls', () => {
  it('give each call the energies it gives alone, though their batches interleave at two peers', async () => {
    // Two models (a step apart, say) over two candidate sets (validation and test): different weights and compactions.
    const paramsA = initParams(cfg, 11);
    const paramsB = initParams(cfg, 12);
    const candsA = candidatesOf(0);
    const candsB = candidatesOf(17);
    const aloneA = await scoreCandidates(cfg, paramsA, candsA, { budgetBytes, profile: activeProfile() });
    const aloneB = await scoreCandidates(cfg, paramsB, candsB, { budgetBytes, profile: activeProfile() });

    const peers = [workerLikePeer(), workerLikePeer()];
    const opts = { budgetBytes, peers: peers.map((p) => p.peer), profile: activeProfile() };
    // The second call starts while the first has batches out at both peers.
    const [a, b] = await Promise.all([scoreCandidates(cfg, paramsA, candsA, opts), scoreCandidates(cfg, paramsB, candsB, opts)]);
    // Both peers took batches of both calls, interleaved: the overlap this test is about did happen.
    for (const p of peers) expect(switches(p.calls)).toBeGreaterThanOrEqual(2);
    expect({ wrongA: wrong(a, aloneA), wrongB: wrong(b, aloneB) }).toEqual({ wrongA: 0, wrongB: 0 });
    await Promise.all(peers.map((p) => p.settled()));
    disposeParams(paramsA);
    disposeParams(paramsB);
  });

  it('score a call that starts mid-way with weights a step later (same candidates, same compaction) with its own weights, and hold no weights once over', async () => {
    const before = initParams(cfg, 21);
    // A training step in between: the same shapes, other values.
    const after: Params = new Map([...before].map(([name, v]) => [name, tf.variable(tf.tidy(() => v.add(tf.randomNormal(v.shape, 0, 0.05, 'float32', 7))))]));
    const cands = candidatesOf(3);
    const aloneBefore = await scoreCandidates(cfg, before, cands, { budgetBytes, profile: activeProfile() });
    const aloneAfter = await scoreCandidates(cfg, after, cands, { budgetBytes, profile: activeProfile() });
    expect(wrong(aloneAfter, aloneBefore)).toBeGreaterThan(30);

    const tensorsBefore = tf.memory().numTensors;
    const peers = [workerLikePeer(), workerLikePeer()];
    const opts: ScoreOptions & { budgetBytes: number } = { budgetBytes, peers: peers.map((p) => p.peer), profile: activeProfile() };
    // The second call starts once the first has delivered its first batch (an Inspect during a validation).
    let second: Promise<Float32Array> | null = null;
    const first = scoreCandidates(cfg, before, cands, { ...opts, onProgress: () => (second ??= scoreCandidates(cfg, after, cands, opts)) });
    const gotBefore = await first;
    const gotAfter = await second!;
    expect(peers.some((p) => switches(p.calls) >= 2)).toBe(true);
    expect({ wrongBefore: wrong(gotBefore, aloneBefore), wrongAfter: wrong(gotAfter, aloneAfter) }).toEqual({ wrongBefore: 0, wrongAfter: 0 });

    // Each call released its weights at every peer: no tensor is left behind, and a late batch of a call that is over is refused.
    await Promise.all(peers.map((p) => p.settled()));
    expect(tf.memory().numTensors).toBe(tensorsBefore);
    const lastCall = Math.max(...peers.flatMap((p) => p.calls));
    await expect(peers[0].inner.score(lastCall, [Int32Array.of(0, 1, 2)], 8)).rejects.toThrow(/no weights loaded for call/);
    disposeParams(before);
    disposeParams(after);
  });

  it('skips the batches a peer still has queued for a call that is released meanwhile', async () => {
    const params = initParams(cfg, 31);
    const peer = peerWork(Promise.resolve(activeProfile()));
    const cands = candidatesOf(5).slice(0, 4);
    const { model, renumber } = await compactModel(cfg, params, cands, activeProfile());
    const batch = cands.map((c) => renumber(c));
    void peer.load(1, model);
    const scored = peer.score(1, batch, 40);
    const queued = peer.score(1, batch, 40);
    const released = peer.release(1);
    // Requests already handed over when the release came are not scored with weights about to go.
    await expect(scored).rejects.toThrow(/call 1 is over/);
    await expect(queued).rejects.toThrow(/call 1 is over/);
    await released;
    disposeParams(params);
  });
});
