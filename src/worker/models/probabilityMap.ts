import { readProbabilityMap } from '../../engine/metrics/recordedMap.ts';
import type { ProbabilityMap, SelectionReport } from '../../engine/metrics/selectionTypes.ts';
import type { SlotModel } from './modelSlots.ts';

/**
 * What turns the model's energies into Rerank's probabilities (fitted on held-out questions): recorded
 * with it (at its last validation), else its validation at hand (`validation`), else a recorded temperature
 * alone (files from before the map), else T = 1.
 */
export function probabilityMapFor(training: SlotModel['training'], validation: SelectionReport | null): { map: ProbabilityMap; source: string } {
  const recorded = readProbabilityMap(training.probabilityMap);
  const source = training.temperatureSource;
  if (recorded) return { map: recorded, source: typeof source === 'string' ? source : 'recorded with the model' };
  if (validation?.probabilityMap) return { map: validation.probabilityMap, source: validation.temperatureSource };
  const t = training.temperature;
  const vote = (temperature: number): ProbabilityMap => ({ temperature, platt: null, selector: null, use: 'vote' });
  if (typeof t === 'number' && t > 0 && Number.isFinite(t)) return { map: vote(t), source: typeof source === 'string' ? source : 'recorded with the model' };
  return { map: vote(1), source: 'T = 1: nothing was fitted for this model (evaluate it on validation data first)' };
}
