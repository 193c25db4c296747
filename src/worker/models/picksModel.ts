import type { ProbabilityMap } from '../../engine/metrics/selectionTypes.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import type { Params } from '../../engine/model/params.ts';
import type { ModelSlot } from '../protocols/models.ts';

/**
 * The selected model as Pick answers holds it, with the probability map Rerank uses: modelQueries.ts leases
 * it, runs/picksRuns.ts picks with it; its weights stay valid until `release`.
 */
export interface PicksModel {
  slot: ModelSlot;
  cfg: ModelConfig;
  params: Params;
  map: ProbabilityMap;
  release(): void;
}
