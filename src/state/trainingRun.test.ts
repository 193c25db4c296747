import { describe, expect, it } from 'vitest';
import { point, replay, report, trainState } from './testing/storeEvents.ts';

describe('engine store: training run', () => {
  it('appends metric points in place and bumps the version', () => {
    const store = replay([trainState('compiling'), trainState('training')]);
    const series = store.getState().run.series;
    store.getState().eventReceived({ type: 'metrics', points: [point(1, 0.7), point(2, 0.69)] });
    store.getState().eventReceived({ type: 'metrics', points: [point(3, Number.NaN)] });
    const run = store.getState().run;
    expect(run.series).toBe(series); // same arrays, grown
    expect(run.series.step).toEqual([1, 2, 3]);
    expect(run.series.loss).toEqual([0.7, 0.69, null]); // NaN → gap for the chart
    expect(Number.isNaN(run.lastPoint?.loss)).toBe(true); // the raw value stays for display
    expect(run.seriesVersion).toBe(2);
  });

  it('takes step and epoch from trainState and progress, not from metric points', () => {
    const store = replay([trainState('training', 0)]);
    store.getState().eventReceived({
      type: 'progress',
      step: 4,
      epoch: 1,
      totalSteps: 20,
      stepsPerSec: 2,
      tokensPerSec: 100,
      elapsedSeconds: 2,
      etaSeconds: 8,
      tensors: 10,
      tensorBytes: 1000,
      skippedSteps: 0,
    });
    store.getState().eventReceived({ type: 'metrics', points: [point(3, 0.7)] });
    expect(store.getState().run.status).toMatchObject({ state: 'training', step: 4, epoch: 1, totalSteps: 20 });
    expect(store.getState().run.throughput?.etaSeconds).toBe(8);
  });

  it('collects epoch losses, best Best-of-N and the latest val summary from evaluations', () => {
    const store = replay([
      trainState('training'),
      { type: 'evaluation', report: report({ epoch: 0, step: 0, bestOfN: 0.4 }) },
      { type: 'evaluation', report: report({ epoch: 1, step: 10, epochTrainLoss: 0.65, bestOfN: 0.55, isBest: true }) },
      { type: 'evaluation', report: report({ set: 'test', epoch: 1, step: 10, epochTrainLoss: 0.65, bestOfN: 0.9 }) },
      { type: 'evaluation', report: report({ epoch: 2, step: 15, bestOfN: 0.5 }) }, // mid-epoch: no epoch loss
      { type: 'evaluation', report: report({ epoch: 2, step: 20, epochTrainLoss: 0.6, bestOfN: 0.52 }) },
    ]);
    const s = store.getState();
    expect(s.run.epochLosses).toEqual([0.65, 0.6]);
    expect(s.run.bestValBestOfN).toBe(0.55);
    expect(s.latestEval.val?.report.summary.bestOfN).toBe(0.52);
    expect(s.latestEval.val?.duringRun).toBe(true);
    expect(s.latestEval.test?.report.summary.bestOfN).toBe(0.9);
    expect(s.lastEvalSet).toBe('val');
    expect(s.run.valSeries.bestOfN).toEqual([0.4, 0.55, 0.5, 0.52]); // test reports stay out of the val chart
    expect(s.run.valSeries.label).toEqual(['start', 'ep 1', 's 15', 'ep 2']);
  });

  it('keeps replies to `evaluate` out of the run curves but shows them as the latest report', () => {
    const store = replay([
      trainState('training'),
      { type: 'evaluation', report: report({ epoch: 1, epochTrainLoss: 0.65, bestOfN: 0.55 }) },
      trainState('done', 20),
    ]);
    store.getState().commandSent({ type: 'evaluate', set: 'val' });
    store.getState().eventReceived({ type: 'evaluation', report: report({ epoch: 0, step: 20, bestOfN: 0.6, origin: 'request' }) });
    const s = store.getState();
    expect(s.pending.evaluate).toBe(false);
    expect(s.run.valSeries.bestOfN).toEqual([0.55]);
    expect(s.run.epochLosses).toEqual([0.65]);
    expect(s.latestEval.val).toMatchObject({ duringRun: false, report: { step: 20 } });
  });

  it('takes the best value from checkpoint and complete events', () => {
    const store = replay([trainState('training'), { type: 'checkpoint', slot: 'best', epoch: 1, step: 10, valBestOfN: 0.6 }]);
    expect(store.getState().run.bestValBestOfN).toBe(0.6);
    store.getState().eventReceived({ type: 'complete', reason: 'finished', steps: 20, bestValBestOfN: 0.61 });
    expect(store.getState().run.bestValBestOfN).toBe(0.61);
    store.getState().eventReceived({ type: 'complete', reason: 'stopped', steps: 20, bestValBestOfN: null });
    expect(store.getState().run.bestValBestOfN).toBe(0.61);
  });

  it('keeps curves through pause/resume and clears them when the next run starts', () => {
    const store = replay([
      trainState('compiling'),
      trainState('training'),
      { type: 'metrics', points: [point(1, 0.7)] },
      { type: 'evaluation', report: report({ epochTrainLoss: 0.7 }) },
      trainState('paused', 1),
      trainState('training', 1),
      { type: 'metrics', points: [point(2, 0.6)] },
      trainState('done', 2),
    ]);
    expect(store.getState().run.series.step).toEqual([1, 2]);
    expect(store.getState().run.status.state).toBe('done');
    const oldSeries = store.getState().run.series;

    store.getState().eventReceived(trainState('compiling'));
    const run = store.getState().run;
    expect(run.series).not.toBe(oldSeries);
    expect(run.series.step).toEqual([]);
    expect(run.epochLosses).toEqual([]);
    expect(run.valSeries.ordinal).toEqual([]);
    expect(store.getState().latestEval.val).toBeNull();
    expect(oldSeries.step).toEqual([1, 2]); // the old run's arrays are not reused
  });

  it('an error during a run leaves the curves in place', () => {
    const store = replay([trainState('training'), { type: 'metrics', points: [point(1, 0.7)] }]);
    store.getState().eventReceived({ type: 'error', command: 'start', message: 'device lost' });
    store.getState().eventReceived(trainState('error', 1));
    expect(store.getState().run.series.step).toEqual([1]);
    expect(store.getState().run.status.state).toBe('error');
  });
});
