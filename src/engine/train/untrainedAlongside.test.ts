import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activeProfile, type BackendProfile, detectProfile, useProfile } from '../backend/profile.ts';
import { splitGroups } from '../data/split.ts';
import { disposeParams, initParams, paramsToArrays } from '../model/params.ts';
import { syntheticView } from '../testing/syntheticData.ts';
import { type RunEvaluation, type RunListener, runTraining } from './loop.ts';
import { peerWork } from './step/peerWork.ts';
import { RunControl, type TakeSnapshot } from './runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from './settings.ts';
import { makeConfig } from '../model/config.ts';
import type { StepPeer } from './step/stepPeer.ts';

const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  model: { ...DEFAULT_TRAIN_SETTINGS.model, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 32, maxLen: 64, dropout: 0.1 },
  epochs: 1,
  lr: 3e-3,
  seed: 5,
  checkpointEverySteps: 0,
};
const cfg = makeConfig({ ...settings.model, vocabSize: 64, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 40, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const split = splitGroups(data.view, { seed: 1 });

/** The backend's profile with steps shared with a peer (WASM's; here on cpu, with its packed forward). */
const shared: BackendProfile = { ...detectProfile('cpu'), packedForward: true, sharedSteps: true };

beforeAll(async () => {
  await tf.setBackend('cpu');
});

afterEach(() => useProfile(null));

/** The run's events in order: 'training', 'step N' for each point, 'eval E' for each evaluation. */
function recorder(onPoint?: (step: number) => void): { events: string[]; evals: RunEvaluation[]; listener: RunListener } {
  const events: string[] = [];
  const evals: RunEvaluation[] = [];
  return {
    events,
    evals,
    listener: {
      state: (s) => void (s === 'training' && !events.includes('training') && events.push('training')),
      points: (ps) => ps.forEach((p) => (events.push(`step ${p.step}`), onPoint?.(p.step))),
      progress: () => undefined,
      evaluation: (e) => (events.push(`eval ${e.epoch}`), evals.push(e)),
      evalProgress: () => undefined,
    },
  };
}

describe("the untrained model's validation alongside the first steps", () => {
  it('lets training start at once, gives the figures the blocking validation gives, and comes before the next one', async () => {
    useProfile(shared);
    // Blocking: no scoring peer.
    const alone = recorder();
    const p0 = initParams(cfg, 4);
    await runTraining({ cfg, params: p0, view: data.view, answers: data.answers, split, settings, profile: shared }, alone.listener, new RunControl());
    disposeParams(p0);
    expect(alone.events.slice(0, 2)).toEqual(['eval 0', 'training']);

    // The peer's scoring replies are held back until the run has taken three steps.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const inner = peerWork(Promise.resolve(activeProfile()));
    let scored = 0;
    const peer: StepPeer = { ...inner, score: (call, batch, length) => gate.then(() => (scored++, inner.score(call, batch, length))) };
    const along = recorder((step) => step >= 2 && open());
    const p1 = initParams(cfg, 4);
    await runTraining(
      { cfg, params: p1, view: data.view, answers: data.answers, split, settings, profile: shared, scoringPeers: [peer], stepPeer: peer },
      along.listener,
      new RunControl(),
    );
    disposeParams(p1);

    expect(scored).toBeGreaterThan(0);
    const at = along.events.indexOf('eval 0');
    // Training started, and took its first three steps, before the untrained model's validation came.
    expect(along.events.indexOf('training')).toBeLessThan(at);
    expect(along.events.indexOf('step 2')).toBeLessThan(at);
    // Still step 0's weights, figures as the blocking run's; the epoch's own validation after it.
    expect(along.evals.map((e) => [e.epoch, e.step])).toEqual([
      [0, 0],
      [1, split.train.length],
    ]);
    expect(along.evals[0].evaluation.summary).toEqual(alone.evals[0].evaluation.summary);
    expect(along.evals[0].evaluation.histogram).toEqual(alone.evals[0].evaluation.histogram);
    expect(along.evals[0].evaluation.selection.temperature).toEqual(alone.evals[0].evaluation.selection.temperature);
  });

  it("gives the one-core run's weights to the bit, whichever step the peer comes free at", async () => {
    useProfile(shared);
    /** A run whose peer's validation replies are held until the loop is about to take step `freeAt` (never: no peer). */
    const run = async (freeAt: number | null) => {
      let open: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const inner = peerWork(Promise.resolve(activeProfile()));
      const parts = { steps: 0 };
      const peer: StepPeer = {
        ...inner,
        score: (call, batch, length) => gate.then(() => inner.score(call, batch, length)),
        // Each shared step asks the peer for its part's gradients once (otherThread unset: two passes).
        gradients: (call, part, upstream) => (parts.steps++, inner.gradients(call, part, upstream)),
      };
      // The loop serves snapshots once before every step: the n-th call comes before step n - 1.
      let served = 0;
      const control = new (class extends RunControl {
        override serveSnapshots(take: TakeSnapshot) {
          if (served++ === freeAt) open();
          super.serveSnapshots(take);
        }
      })();
      const params = initParams(cfg, 4);
      const peers = freeAt === null ? {} : { scoringPeers: [peer], stepPeer: peer };
      await runTraining({ cfg, params, view: data.view, answers: data.answers, split, settings, profile: shared, ...peers }, recorder().listener, control);
      const weights = await paramsToArrays(params, shared);
      disposeParams(params);
      return { weights, sharedSteps: parts.steps };
    };
    const oneCore = await run(null);
    const steps = split.train.length;
    const counts: number[] = [];
    for (const freeAt of [1, 3, 0]) {
      const { weights, sharedSteps } = await run(freeAt);
      counts.push(sharedSteps);
      for (const [name, want] of oneCore.weights) {
        const got = weights.get(name)!;
        let differing = 0;
        for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) differing++;
        expect(differing, `${name}, peer free at step ${freeAt}`).toBe(0);
      }
    }
    expect(oneCore.sharedSteps).toBe(0);
    // The runs did share different steps with the peer: some, never all, and fewer the later it came free.
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[0]).toBeLessThan(steps);
    expect(counts[1]).toBeLessThan(counts[0]);
    expect(counts[2]).toBeGreaterThan(counts[0]);
  });
});
