import { stepReplay } from '../kernels/webgpu/replay/stepReplay.ts';
import { cloneParams } from '../model/params.ts';
import { trainEpochs } from './epochs.ts';
import { type Run, prepareRun } from './run.ts';
import type { RunControl } from './runControl.ts';
import type { RunInputs, RunListener, RunResult } from './runTypes.ts';
import { settleUntrained, validate, validateUntrainedAlongside } from './validate.ts';

export type { RunEvaluation, RunInputs, RunListener, RunProgress, RunResult, TrainPoint } from './runTypes.ts';
export { NON_FINITE_PAUSE } from './curves.ts';

/**
 * The reference recipe: epochs over the training groups, reshuffled every epoch with the run's seed,
 * `groupsPerStep` groups per step, Bradley-Terry loss, AdamW with clipping and a cosine schedule with
 * warmup, validation before training and at every epoch end (and every N steps if asked). Loss and gradient norm are read
 * back asynchronously, on a GPU several steps at a time, so the GPU is never idle waiting for the CPU.
 *
 * In phases, as python/eorm/train.py: prepare (run.ts: counts, optimizer, a resume's figures), begin (the
 * untrained model's validation), the epochs of steps (epochs.ts: steps read back in readback.ts, recorded in
 * curves.ts, validations and checkpoints in validate.ts and saveCheckpoint.ts), finish.
 */
export async function runTraining(inputs: RunInputs, listener: RunListener, control: RunControl): Promise<RunResult> {
  const run = prepareRun(inputs, listener, control);
  try {
    await begin(run);
    await trainEpochs(run);
    // Stopped before any later validation: the untrained model's is still reported.
    await settleUntrained(run);
    // A checkpoint that could not be read back means the device failed: say so.
    await Promise.all(run.checkpointsInFlight);
  } finally {
    await finish(run);
  }
  return { reason: control.stopRequested ? 'stopped' : 'finished', steps: run.state.step, bestValBestOfN: run.state.best };
}

/** Epoch 0 of a new run: the untrained model, so the curves start from where training starts. */
async function begin(run: Run): Promise<void> {
  const { inputs } = run;
  const resume = inputs.resumeFrom;
  run.listener.state('compiling', run.state.step, resume?.epoch ?? 1);
  if (resume) return;
  if (inputs.split.val.length > 0 && run.stepPeer && (inputs.scoringPeers?.length ?? 0) > 0) validateUntrainedAlongside(run);
  else await validate(run, 0, null);
}

/** However the run ends: the optimizer's memory released, the final weights to whoever asks for them. */
async function finish(run: Run): Promise<void> {
  const { params } = run.inputs;
  await Promise.allSettled(run.checkpointsInFlight);
  run.optimizer.sync(params);
  run.optimizer.dispose();
  run.lossScaler?.dispose();
  // The recorded steps bind this run's weights and moments: their memory goes with the run.
  if (run.profile.replaySteps) stepReplay().clear();
  run.gpuPool?.trim();
  run.control.finish(() => ({ params: cloneParams(params), step: run.state.step }));
}
