import { captureCheckpoint } from './checkpoint.ts';
import type { Run } from './run.ts';

/**
 * A checkpoint for the listener, taken between two steps with every loss read back (the tallies are whole);
 * delivered once read back, while training goes on. `stepInEpoch` of `epoch` is the first step still to take.
 */
export function saveCheckpoint(run: Run, epoch: number, stepInEpoch: number): void {
  const { listener, state } = run;
  const deliver = listener.checkpoint;
  if (!deliver) return;
  const tallies = {
    ema: state.ema,
    bestValBestOfN: state.best,
    bestMetricValue: state.bestScore,
    epochLossSum: state.epochLossSum,
    epochLossCount: state.epochLossCount,
  };
  const done = captureCheckpoint(run.inputs.params, run.optimizer, { step: state.step, epoch, stepInEpoch }, tallies).then((c) => deliver.call(listener, c));
  done.catch(() => undefined);
  run.checkpointsInFlight.push(done);
}
