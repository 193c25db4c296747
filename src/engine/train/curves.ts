import * as tf from '@tensorflow/tfjs';
import type { Run, StepAt } from './run.ts';

const SMOOTHING = 0.95;
const REPORT_EVERY_MS = 250;

/** This many skipped (non-finite) steps in a row pause the run. */
export const NON_FINITE_PAUSE = 3;

/**
 * A step's loss into the curve and the epoch's mean; a skipped (non-finite) step counted instead, and the
 * run paused after NON_FINITE_PAUSE of them in a row.
 */
export function record(run: Run, l: number, gradNorm: number, at: StepAt): void {
  const state = run.state;
  // The step skipped its update (see trainStep): counted, kept out of the curves and the epoch's mean.
  if (!Number.isFinite(l) || !Number.isFinite(gradNorm)) {
    state.skippedSteps++;
    // Under half precision's loss scaler an overflowing gradient is the scaler's business (it halves the scale), not divergence.
    if (!(Number.isFinite(l) && run.lossScaler)) state.skippedInARow++;
    if (state.skippedInARow >= NON_FINITE_PAUSE && !state.pauseReason) {
      state.pauseReason = `Paused: ${state.skippedInARow} steps in a row (up to step ${at.step}) had a ${Number.isFinite(l) ? 'non-finite gradient norm' : 'non-finite loss'}, so their updates were skipped. Lower the learning rate (or raise warmup) and start again, or resume to try on.`;
      run.control.pause();
    }
    return;
  }
  state.skippedInARow = 0;
  state.ema = SMOOTHING * state.ema + (1 - SMOOTHING) * l;
  run.progress.points.push({ step: at.step, epoch: at.epoch, loss: l, smoothed: state.ema / (1 - SMOOTHING ** (at.step + 1)), lr: at.lr, gradNorm });
  state.epochLossSum += l;
  state.epochLossCount++;
}

/** The recorded points and the progress, to the listener: at most every REPORT_EVERY_MS unless forced. */
export function report(run: Run, epoch: number, force = false): void {
  const { progress, state } = run;
  const now = performance.now();
  if (!force && now - progress.lastReport < REPORT_EVERY_MS) return;
  progress.lastReport = now;
  if (progress.points.length > 0) run.listener.points(progress.points);
  progress.points = [];
  const timer = progress.timer;
  const elapsed = timer ? (now - timer.start) / 1000 : 0;
  const stepsPerSec = timer && elapsed > 0 ? timer.steps / elapsed : 0;
  run.listener.progress({
    step: state.step,
    epoch,
    totalSteps: run.steps.total,
    stepsPerSec,
    tokensPerSec: timer && elapsed > 0 ? timer.tokens / elapsed : 0,
    elapsedSeconds: elapsed,
    etaSeconds: stepsPerSec > 0 ? (run.steps.total - state.step) / stepsPerSec : null,
    tensors: tf.memory().numTensors,
    tensorBytes: tf.memory().numBytes,
    skippedSteps: state.skippedSteps,
  });
}
