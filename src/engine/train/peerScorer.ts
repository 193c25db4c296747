import type { ModelConfig } from '../model/config.ts';
import { type Params, disposeParams, paramsFromArrays } from '../model/params.ts';
import { type ScoringPeer, scoreBatch } from './scoring.ts';

export interface PeerScorer extends ScoringPeer {
  /** Settles once the call's weights are dropped (or were never held). */
  release(call: number): Promise<void>;
}

/**
 * What a peer runs on its own thread (the scoring worker wraps it in messages). Requests are handled
 * one at a time in the order received, after `ready` (the thread's backend): a batch sent right after
 * its call's weights finds them. It holds the weights of every call not yet released, keyed by call, so
 * two calls in flight at once each score with their own; a batch of a released call is refused unscored.
 */
export function peerScorer(ready: Promise<void> = Promise.resolve()): PeerScorer {
  const held = new Map<number, { cfg: ModelConfig; params: Params }>();
  // Released calls whose release the queue has not reached: their queued requests are skipped.
  const over = new Set<number>();
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: () => T | Promise<T>): Promise<T> => {
    // Each request waits for `ready`: if the backend failed, every request fails with its reason.
    const run = queue.then(() => ready).then(work);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    load: (call, model) =>
      inOrder(() => {
        if (over.has(call)) return;
        if (held.has(call)) throw new Error(`scoring call ${call} was loaded twice`);
        held.set(call, { cfg: model.cfg, params: paramsFromArrays(model.cfg, new Map(model.weights)) });
      }),
    score: (call, batch, length) =>
      inOrder(() => {
        const c = held.get(call);
        if (over.has(call)) throw new Error(`scoring call ${call} is over`);
        if (!c) throw new Error(`no weights loaded for scoring call ${call}`);
        return scoreBatch(c.cfg, c.params, batch, length);
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
