import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { energies } from '../model/transebm.ts';
import { activationBytesPerCandidate } from '../model/autoMicroBatch.ts';
import { padBatch } from '../model/batch.ts';
import { peerWork } from '../train/step/peerWork.ts';
import { type ScoringPeer, scoreCandidates } from './scoring.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 50, dModel: 8, nHeads: 2, nLayers: 2, maxLen: 40, dropout: 0.2, clsId: 49, sepId: 49, padId: 49 });

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/**
 * 19 candidates of 4 to 33 tokens (their ids set by the three multipliers) in batches of about two long ones, scored by this
 * thread alone; `batches` counts them (one progress report per batch).
 */
async function scoredHere(seed: number, [a, b, c]: number[]) {
  const params = initParams(cfg, seed);
  const cands = Array.from({ length: 19 }, (_, i) => [49, ...Array.from({ length: 3 + ((i * a) % 30) }, (_, t) => 1 + ((t * b + i * c) % 47))]);
  const budgetBytes = 2 * activationBytesPerCandidate(cfg, 33);
  let batches = 0;
  const alone = await scoreCandidates(cfg, params, cands, { budgetBytes, onProgress: () => batches++, profile: activeProfile() });
  return { params, cands, budgetBytes, alone, batches };
}

describe('scoreCandidates', () => {
  it('returns eval-mode energies in input order, whatever the batching', async () => {
    const params = initParams(cfg, 3);
    const cands = Array.from({ length: 11 }, (_, i) => [49, ...Array.from({ length: 3 + ((i * 7) % 30) }, (_, t) => 1 + ((t * 5 + i) % 47))]);
    const all = tf.tidy(() => energies(cfg, params, padBatch(cands, cfg.padId), { profile: activeProfile() }));
    const want = await all.data();
    all.dispose();
    // A budget of about two long candidates forces several batches of different sizes.
    const small = await scoreCandidates(cfg, params, cands, { budgetBytes: 2 * activationBytesPerCandidate(cfg, 33), profile: activeProfile() });
    const large = await scoreCandidates(cfg, params, cands, { profile: activeProfile() });
    for (let i = 0; i < cands.length; i++) {
      expect(small[i]).toBeCloseTo(want[i], 6);
      expect(large[i]).toBeCloseTo(want[i], 6);
    }
    disposeParams(params);
  });

  it('shares the batches with peers, which score with the compacted embedding, and scores itself what a failing or silent peer holds', async () => {
    const params = initParams(cfg, 4);
    const cands = Array.from({ length: 23 }, (_, i) => [49, ...Array.from({ length: 3 + ((i * 11) % 30) }, (_, t) => 1 + ((t * 3 + i * 5) % 47))]);
    const budgetBytes = 2 * activationBytesPerCandidate(cfg, 33);
    const alone = await scoreCandidates(cfg, params, cands, { budgetBytes, profile: activeProfile() });
    const counting = (peer: ScoringPeer, failAfter = Infinity) => {
      const seen = { batches: 0, vocab: 0 };
      const wrapped: ScoringPeer = {
        load: (call, m) => ((seen.vocab = m.cfg.vocabSize), peer.load(call, m)),
        score: (call, batch, length) => (++seen.batches > failAfter ? Promise.reject(new Error('peer died')) : peer.score(call, batch, length)),
        release: (call) => peer.release(call),
      };
      return { seen, wrapped };
    };
    const a = counting(peerWork(Promise.resolve(activeProfile())));
    const b = counting(peerWork(Promise.resolve(activeProfile())), 1);
    const broken: ScoringPeer = {
      load: () => Promise.reject(new Error('no backend')),
      score: () => Promise.reject(new Error('no model')),
      release: () => undefined,
    };
    // A peer that never answers: its batches are scored here once nothing else is left.
    const hanging: ScoringPeer = { load: () => new Promise(() => undefined), score: () => new Promise(() => undefined), release: () => undefined };
    let progress = 0;
    const shared = await scoreCandidates(cfg, params, cands, {
      budgetBytes,
      peers: [a.wrapped, b.wrapped, broken, hanging],
      onProgress: (done) => (progress = done),
      profile: activeProfile(),
    });
    // The peers took batches (the tests' peers run on this thread, interleaving at every await).
    expect(a.seen.batches).toBeGreaterThan(0);
    expect(b.seen.batches).toBe(2);
    // Their embedding holds only the ids the candidates use, plus CLS/SEP/PAD: here fewer than the vocabulary's 50.
    expect(a.seen.vocab).toBeLessThan(cfg.vocabSize);
    expect(progress).toBe(cands.length);
    for (let i = 0; i < cands.length; i++) expect(shared[i]).toBeCloseTo(alone[i], 6);
    disposeParams(params);
  });
  it('with peersOnly, leaves every batch to the peers, and scores here only what a failing peer held', async () => {
    const { params, cands, budgetBytes, alone, batches } = await scoredHere(5, [13, 7, 3]);
    expect(batches).toBeGreaterThan(2);
    // With one healthy peer, it takes every batch.
    const taken = { good: 0, flaky: 0 };
    const good = peerWork(Promise.resolve(activeProfile()));
    const healthy: ScoringPeer = { ...good, score: (c, b, l) => (taken.good++, good.score(c, b, l)) };
    const only = await scoreCandidates(cfg, params, cands, { budgetBytes, peers: [healthy], peersOnly: true, profile: activeProfile() });
    expect(taken.good).toBe(batches);
    for (let i = 0; i < cands.length; i++) expect(only[i]).toBeCloseTo(alone[i], 6);
    // A peer that dies after its first batch: the batch it failed is scored here (at least one), the rest by the healthy one.
    taken.good = 0;
    const flakyInner = peerWork(Promise.resolve(activeProfile()));
    const flaky: ScoringPeer = { ...flakyInner, score: (c, b, l) => (++taken.flaky > 1 ? Promise.reject(new Error('peer died')) : flakyInner.score(c, b, l)) };
    const mixed = await scoreCandidates(cfg, params, cands, { budgetBytes, peers: [healthy, flaky], peersOnly: true, profile: activeProfile() });
    expect(taken.flaky).toBeGreaterThan(1);
    expect(taken.good + 1).toBeLessThan(batches);
    for (let i = 0; i < cands.length; i++) expect(mixed[i]).toBeCloseTo(alone[i], 6);
    // No peer at all: this thread scores everything.
    const none = await scoreCandidates(cfg, params, cands, { budgetBytes, peers: [], peersOnly: true, profile: activeProfile() });
    for (let i = 0; i < cands.length; i++) expect(none[i]).toBeCloseTo(alone[i], 6);
    disposeParams(params);
  });
  it('with peersOnly, sends the peers every batch at once, shared out evenly: this thread may not answer until its step is done', async () => {
    const { params, cands, budgetBytes, alone, batches } = await scoredHere(6, [11, 5, 7]);
    // Peers that hold every reply until told: what they were sent by then is what went out without one.
    const sent = [0, 0];
    let answer = () => undefined as void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const loads: Promise<void>[] = [];
    const held = (p: number): ScoringPeer => {
      const inner = peerWork(Promise.resolve(activeProfile()));
      let loaded = () => undefined as void;
      loads.push(new Promise<void>((resolve) => (loaded = resolve)));
      return { ...inner, load: (c, m) => (loaded(), inner.load(c, m)), score: (c, b, l) => (sent[p]++, answered.then(() => inner.score(c, b, l))) };
    };
    const scoring = scoreCandidates(cfg, params, cands, { budgetBytes, peers: [held(0), held(1)], peersOnly: true, profile: activeProfile() });
    // A peer's first batches go out with its weights, in the same turn: by the next, all that went out at once.
    await Promise.all(loads);
    expect(sent[0] + sent[1]).toBe(batches);
    expect(Math.abs(sent[0] - sent[1])).toBeLessThanOrEqual(1);
    answer();
    const shared = await scoring;
    for (let i = 0; i < cands.length; i++) expect(shared[i]).toBeCloseTo(alone[i], 6);
    disposeParams(params);
  });
});
