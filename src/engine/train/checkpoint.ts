import type { AdamW, AdamWState } from '../model/adamw.ts';
import type { ParamArrays, Params } from '../model/params.ts';
import { readTogether } from '../gpuMemory/readTogether.ts';

/** Where a run stands between two steps: the first step still to take is `stepInEpoch` of `epoch`. */
export interface RunPosition {
  step: number;
  epoch: number;
  stepInEpoch: number;
}

/** The loop's running figures, so the curves and the best checkpoint carry on as if never interrupted. */
export interface RunTallies {
  /** Unnormalised EMA of the loss (the smoothed curve divides by 1 − 0.95^(step+1)). */
  ema: number;
  bestValBestOfN: number | null;
  /** The best checkpoint's figure of the run's best metric (settings.bestMetric); absent in checkpoints from before it. */
  bestMetricValue?: number | null;
  epochLossSum: number;
  epochLossCount: number;
}

/**
 * All a run needs to continue exactly as it would have: everything else (the epoch's group order,
 * dropout masks, the learning rate) is derived from the seed and the position.
 */
export interface RunCheckpoint extends RunPosition, RunTallies {
  params: ParamArrays;
  optimizer: AdamWState;
}

/**
 * Copies the weights (lazy embedding synced) and the optimizer state now, synchronously, so call it
 * between two steps; the read-back that the returned promise awaits may overlap the next steps. The
 * weights and the state are read together: one buffer map on WebGPU (see gpuMemory/readTogether.ts).
 */
export function captureCheckpoint(params: Params, optimizer: AdamW, at: RunPosition, tallies: RunTallies): Promise<RunCheckpoint> {
  optimizer.sync(params);
  const names = [...params.keys()];
  const state = optimizer.stateTensors();
  const reading = readTogether([...params.values(), ...state.tensors], optimizer.profile.readTogether);
  const read = async (): Promise<RunCheckpoint> => {
    const values = await reading;
    const arrays: ParamArrays = new Map(names.map((n, i) => [n, values[i]]));
    return { ...at, ...tallies, params: arrays, optimizer: state.finish(values.slice(names.length)) };
  };
  return read();
}
