import { expect, it } from 'vitest';
import { NON_FINITE_PAUSE, record } from './curves.ts';
import type { Run } from './run.ts';

/** A run as record() sees it: its figures, its pause, and whether half precision's loss scaler runs. */
function fakeRun(scaled: boolean) {
  const paused: string[] = [];
  const run = {
    state: { step: 0, ema: 0, best: null, bestScore: null, epochLossSum: 0, epochLossCount: 0, skippedSteps: 0, skippedInARow: 0, pauseReason: undefined },
    progress: { points: [], lastReport: 0, timer: null },
    control: { pause: () => paused.push('paused') },
    lossScaler: scaled ? {} : null,
  } as unknown as Run;
  return { run, paused };
}

it('under a loss scaler, overflowing gradients (finite loss) are skipped and counted but never pause the run', () => {
  for (const scaled of [false, true]) {
    const { run, paused } = fakeRun(scaled);
    for (let s = 0; s < NON_FINITE_PAUSE + 2; s++) record(run, 0.7, Infinity, { step: s, epoch: 1, lr: 1e-3 });
    expect(run.state.skippedSteps).toBe(NON_FINITE_PAUSE + 2);
    expect(paused.length, `scaled ${scaled}`).toBe(scaled ? 0 : 1);
  }
});

it('under a loss scaler, a non-finite loss is still divergence: it pauses the run', () => {
  const { run, paused } = fakeRun(true);
  for (let s = 0; s < NON_FINITE_PAUSE; s++) record(run, NaN, NaN, { step: s, epoch: 1, lr: 1e-3 });
  expect(paused).toEqual(['paused']);
  expect(run.state.pauseReason).toMatch(/non-finite loss/);
});
