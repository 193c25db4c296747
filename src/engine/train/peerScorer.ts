import type { ModelConfig } from '../model/config.ts';
import { type Params, disposeParams, paramsFromArrays } from '../model/params.ts';
import { scoreBatch } from './scoring.ts';
import type { ScoringPeer } from './scoringPeer.ts';

/**
 * What a peer runs on its own thread (the scoring worker wraps it in messages): keeps the last loaded
 * weights, scores batches with them exactly as the engine does.
 */
export function peerScorer(): ScoringPeer {
  let loaded: { cfg: ModelConfig; params: Params } | null = null;
  return {
    async load(model) {
      if (loaded) disposeParams(loaded.params);
      loaded = null;
      loaded = { cfg: model.cfg, params: paramsFromArrays(model.cfg, new Map(model.weights)) };
    },
    async score(batch, length) {
      if (!loaded) throw new Error('no model loaded');
      return scoreBatch(loaded.cfg, loaded.params, batch, length);
    },
  };
}
