import { createRng, mixSeed, shuffleInPlace } from '../shared/rng.ts';
import { cosineWithWarmup } from '../model/schedule.ts';
import { autoMicroBatch } from '../model/autoMicroBatch.ts';
import { report } from './curves.ts';
import { drain, queueStep, readIfFull } from './readback.ts';
import type { Run } from './run.ts';
import { saveCheckpoint } from './saveCheckpoint.ts';
import { trainStep } from './step/step.ts';
import { stepBatch } from './step/stepBatch.ts';
import { reportUntrained, settleUntrained, validate } from './validate.ts';
import { yieldToEventLoop } from '../shared/yieldToEventLoop.ts';

/**
 * The epochs over the training groups, each reshuffled with the run's seed (a resume goes on from its
 * checkpoint's step), with a validation and a checkpoint at every epoch's end; returns early when stopped.
 */
export async function trainEpochs(run: Run): Promise<void> {
  const { inputs, state, control } = run;
  const { split, settings } = inputs;
  const resume = inputs.resumeFrom;
  for (let epoch = resume?.epoch ?? 1; epoch <= settings.epochs; epoch++) {
    const order = Uint32Array.from(split.train);
    shuffleInPlace(order, createRng(mixSeed(settings.seed, epoch)));
    // A resume mid-epoch goes on with the epoch's loss tallies so far.
    const firstStep = resume && epoch === resume.epoch ? resume.stepInEpoch : 0;
    if (firstStep === 0) {
      state.epochLossSum = 0;
      state.epochLossCount = 0;
    }
    for (let s = firstStep; s < run.steps.perEpoch; s++) {
      await yieldToEventLoop();
      reportUntrained(run);
      control.serveSnapshots(run.take);
      if (control.pauseRequested) await pause(run, epoch);
      if (control.stopRequested) break;
      await trainOneStep(run, order, s, epoch);
      if (s + 1 < run.steps.perEpoch) await withinEpoch(run, epoch, s + 1);
    }
    await drain(run);
    report(run, epoch, true);
    if (control.stopRequested) return;
    await validate(run, epoch, state.epochLossCount > 0 ? state.epochLossSum / state.epochLossCount : null);
    saveCheckpoint(run, epoch + 1, 0);
  }
}

/** Step s of the epoch: its groups, the learning rate and micro-batch, the step itself, then its scalars queued for reading back. */
async function trainOneStep(run: Run, order: Uint32Array, s: number, epoch: number): Promise<void> {
  const { cfg, params, view, settings, passBudgetBytes } = run.inputs;
  const { state, progress, steps } = run;
  const batch = stepBatch(view, order.subarray(s * steps.perStep, (s + 1) * steps.perStep), cfg.maxLen);
  // Not while the peer scores the untrained model: this thread then computes both parts of the step,
  // with the same numbers (sharedStep.ts). A split step's passes hold one part's activations each.
  const peer = run.untrained.scoring ? undefined : run.stepPeer;
  const perThread = run.splitSteps ? Math.ceil(batch.candidates.length / 2) : batch.candidates.length;
  const microBatch = settings.microBatch > 0 ? settings.microBatch : autoMicroBatch(cfg, perThread, batch.longest, passBudgetBytes);
  const lr = cosineWithWarmup(state.step, settings.lr, steps.warmup, steps.total);
  const scalars = await trainStep(cfg, params, run.optimizer, batch, {
    lr,
    maxGradNorm: settings.maxGradNorm,
    microBatch,
    dropoutSeed: mixSeed(settings.seed ^ 0x5eed, state.step),
    peer,
  });
  queueStep(run, scalars, { step: state.step, epoch, lr });
  state.step++;
  if (progress.timer === null) {
    // The first step compiles every kernel: wait for it, then start the clock.
    await drain(run);
    progress.timer = { start: performance.now(), steps: 0, tokens: 0 };
    run.listener.state('training', state.step, epoch);
  } else {
    progress.timer.steps++;
    progress.timer.tokens += batch.tokenCount;
    await readIfFull(run);
  }
  run.gpuPool?.trim();
  report(run, epoch);
}

/** Between two steps of an epoch: the validation and the checkpoint asked for every N steps. */
async function withinEpoch(run: Run, epoch: number, stepInEpoch: number): Promise<void> {
  const { settings } = run.inputs;
  const step = run.state.step;
  if (settings.evalEverySteps > 0 && step % settings.evalEverySteps === 0) {
    await drain(run);
    report(run, epoch, true);
    await validate(run, epoch, null);
  }
  if (settings.checkpointEverySteps > 0 && step % settings.checkpointEverySteps === 0) {
    await drain(run);
    // The checkpoint's history holds the untrained model's validation.
    await settleUntrained(run);
    // The listener gets every point up to the checkpoint before the checkpoint itself.
    report(run, epoch, true);
    saveCheckpoint(run, epoch, stepInEpoch);
  }
}

/** Paused (by the user, or by non-finite steps in a row): every step read back and reported, then held until resumed or stopped. */
async function pause(run: Run, epoch: number): Promise<void> {
  const { state, listener, control } = run;
  await drain(run);
  // Paused: down to the budget of what is in use, once the checkpoints' read-backs have given theirs back.
  await Promise.allSettled(run.checkpointsInFlight);
  run.gpuPool?.trim();
  report(run, epoch, true);
  listener.state('paused', state.step, epoch, state.pauseReason);
  state.pauseReason = undefined;
  state.skippedInARow = 0;
  // The untrained model's validation, if it finishes meanwhile, is reported while paused.
  void run.untrained.scoring?.then(
    () => reportUntrained(run),
    () => undefined,
  );
  await control.holdStill(run.take, () => control.waitWhilePaused());
  listener.state('training', state.step, epoch);
}
