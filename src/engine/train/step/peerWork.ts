import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../../backend/profile.ts';
import type { ModelConfig } from '../../model/config.ts';
import { type Params, disposeParams, paramsFromArrays } from '../../model/params.ts';
import { btLossGradient, pairGroups } from '../../model/loss.ts';
import { accumulate, chunkPasses } from './chunkPasses.ts';
import { ENGINE, EnergyExchange, PEER } from './energyExchange.ts';
import { scoreBatch } from '../../score/scoring.ts';
import type { PeerPart, StepPeer } from './stepPeer.ts';

/** How long a one-pass part waits for the engine's energies (the engine publishes them before it waits). */
const ENGINE_WAIT_MS = 60_000;

/** Gradients as arrays for the reply; the tensors are freed. */
function readBack(grads: Map<string, tf.Tensor>): Array<[string, Float32Array]> {
  const out = [...grads].map(([name, g]) => [name, g.dataSync() as Float32Array] as [string, Float32Array]);
  tf.dispose([...grads.values()]);
  return out;
}

/** The indices of the part's chunks. */
const partChunks = (part: PeerPart) => Array.from({ length: part.chunks.length - part.from }, (_, i) => part.from + i);

export interface PeerWork extends StepPeer {
  /** Settles once the call's weights are dropped (or were never held). */
  release(call: number): Promise<void>;
}

/**
 * What a peer runs on its own thread (the peer worker, peer.worker.ts, wraps it in messages): scoring batches and
 * parts of training steps (sharedStep.ts). Requests are handled
 * one at a time in the order received, after `ready` (the thread's backend, with the profile every request
 * runs with, taken once when it started): a batch sent right after
 * its call's weights finds them. It holds the weights of every call not yet released, keyed by call, so
 * two calls in flight at once each score with their own; a batch of a released call is refused unscored.
 */
export function peerWork(ready: Promise<BackendProfile>): PeerWork {
  const held = new Map<number, { cfg: ModelConfig; params: Params }>();
  // Released calls whose release the queue has not reached: their queued requests are skipped.
  const over = new Set<number>();
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: (profile: BackendProfile) => T | Promise<T>): Promise<T> => {
    // Each request waits for `ready`: if the backend failed, every request fails with its reason.
    const run = queue.then(() => ready).then(work);
    queue = run.catch(() => undefined);
    return run;
  };
  const weightsOf = (call: number) => {
    const c = held.get(call);
    if (over.has(call)) throw new Error(`call ${call} is over`);
    if (!c) throw new Error(`no weights loaded for call ${call}`);
    return c;
  };
  const passesOf = (call: number, part: PeerPart, profile: BackendProfile) => {
    const c = weightsOf(call);
    return chunkPasses(c.cfg, c.params, part.candidates, part.first, part.chunks, { dropoutSeed: part.dropoutSeed, profile });
  };
  return {
    load: (call, model) =>
      inOrder(() => {
        if (over.has(call)) return;
        if (held.has(call)) throw new Error(`scoring call ${call} was loaded twice`);
        held.set(call, { cfg: model.cfg, params: paramsFromArrays(model.cfg, new Map(model.weights)) });
      }),
    score: (call, batch, length) =>
      inOrder((profile) => {
        const c = weightsOf(call);
        return scoreBatch(c.cfg, c.params, batch, length, profile);
      }),
    energies: (call, part) =>
      inOrder((profile) => {
        const passes = passesOf(call, part, profile);
        const e = tf.tidy(() => tf.concat(partChunks(part).map((c) => passes.energies(c))));
        const values = e.dataSync() as Float32Array;
        e.dispose();
        return values;
      }),
    gradients: (call, part, upstream) =>
      inOrder((profile) => {
        const passes = passesOf(call, part, profile);
        let grads: Map<string, tf.Tensor> | null = null;
        for (const c of partChunks(part)) {
          const [s, e] = part.chunks[c];
          const up = tf.tensor1d(upstream.subarray(s - part.first, e - part.first));
          grads = accumulate(grads, passes.gradients(c, up));
          up.dispose();
        }
        return readBack(grads!);
      }),
    onePass: (call, part, step) =>
      inOrder((profile) => {
        if (part.chunks.length - part.from !== 1) throw new Error('a one-pass part is one chunk');
        const passes = passesOf(call, part, profile);
        const exchange = new EnergyExchange(step.exchange);
        const pairs = pairGroups(step.labels, step.groupOf);
        // The engine's numbers for this half: dL/dE in closed form from both halves' energies (sharedStep.ts).
        const grads = passes.gradients(part.from, (mine) => {
          const values = mine.dataSync() as Float32Array;
          exchange.publish(PEER, step.step, part.first, values);
          const waited = exchange.wait(ENGINE, step.step, ENGINE_WAIT_MS);
          if (waited !== 'ready') throw new Error(`the engine's energies of step ${step.step} did not come (${waited})`);
          const all = new Float32Array(step.labels.length);
          all.set(exchange.read(0, part.first));
          all.set(values, part.first);
          return tf.tidy(() => tf.slice(btLossGradient(tf.tensor1d(all), pairs, profile), [part.first], [values.length]) as tf.Tensor1D);
        });
        return readBack(grads);
      }),
    release(call) {
      over.add(call);
      return inOrder(() => {
        over.delete(call);
        const c = held.get(call);
        held.delete(call);
        if (c) disposeParams(c.params);
      });
    },
  };
}
