import { describe, expect, it } from 'vitest';
import type { DatasetSummary, EvalReport, ModelInfo, ModelSlot, TrainPoint, WorkerEvent } from '../worker/protocol.ts';
import { DEFAULT_TRAIN_SETTINGS } from '../engine/train/settings.ts';
import type { BackendInfo } from '../worker/backendInfo.ts';
import { createEngineStore, firstGroupToShow, isRunActive, isStale } from './engineStore.ts';

const replay = (events: WorkerEvent[]) => {
  const store = createEngineStore();
  for (const ev of events) store.getState().eventReceived(ev);
  return store;
};

const point = (step: number, loss: number, epoch = 1): TrainPoint => ({ step, epoch, loss, smoothed: loss, lr: 1e-4, gradNorm: 0.5 });

function summary(role: 'train' | 'test', lines: number): DatasetSummary {
  return {
    role,
    name: `${role}.jsonl`,
    bytes: 100,
    stats: {
      lines: { read: lines, accepted: lines, rejected: 0, blank: 0, invalidUtf8: 0 },
      groups: 2,
      candidates: lines,
      candidatesPerGroup: { min: 2, median: 2, max: 2, histogram: [{ size: 2, groups: 2 }] },
      shareCorrect: 0.5,
      groupsBothLabels: 2,
      groupsAllCorrect: 0,
      groupsAllWrong: 0,
      oracle: 1,
      firstCandidate: 0.5,
      majorityVote: 0.5,
      candidatesWithAnswer: lines,
    },
    tokens: { maxLen: 64, truncated: 0, min: 3, median: 5, max: 9, mean: 5, histogram: { edges: [0, 32, 64], counts: [4, 0] } },
    firstErrors: [],
    errorCounts: { invalid_json: 0, not_object: 0, missing_field: 0, wrong_type: 0, empty_question: 0, bad_label: 0, line_too_long: 0, conflicting_question: 0 },
    trainableGroups: 2,
    split: role === 'train' ? { seed: 42, train: 1, val: 1 } : null,
    timing: { parseSeconds: 0, tokenizeSeconds: 0, workers: 1 },
  };
}

function report(over: Partial<EvalReport> & { bestOfN?: number }): EvalReport {
  const { bestOfN = 0.5, ...rest } = over;
  return {
    set: 'val',
    epoch: 1,
    step: 10,
    epochTrainLoss: null,
    isBest: false,
    origin: 'run',
    modelSlot: 'latest',
    curve: [],
    histogram: { edges: [0, 1], correct: [1], incorrect: [1], skipped: 0 },
    summary: {
      nGroups: 2,
      nCandidates: 4,
      nPairGroups: 2,
      nPairs: 2,
      nNonFinite: 0,
      bestOfN,
      pairwise: 0.75,
      pairwiseMacro: 0.75,
      meanMargin: 0.1,
      btLoss: 0.6,
      energy: { correct: { count: 2, mean: 0, std: 1 }, incorrect: { count: 2, mean: 1, std: 1 } },
      nNoAnswer: 0,
      baselines: { firstCandidate: 0.5, randomExpected: 0.5, majorityVote: 0.5, weightedVote: 0.5, oracle: 1 },
    },
    ...rest,
  };
}

const trainState = (state: 'idle' | 'compiling' | 'training' | 'paused' | 'done' | 'error', step = 0): WorkerEvent => ({
  type: 'trainState',
  state,
  step,
  epoch: 1,
  totalSteps: 20,
  totalEpochs: 2,
});

describe('engine store: data loading', () => {
  it('goes empty → loading → ready for the train role', () => {
    const store = createEngineStore();
    expect(store.getState().data.train.status).toBe('empty');
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'x', name: 'x' } });
    expect(store.getState().data.train.status).toBe('loading');
    store.getState().eventReceived({ type: 'ingestProgress', role: 'train', phase: 'reading', done: 5, total: 10, lines: 3, etaSeconds: 1 });
    expect(store.getState().data.train.progress?.done).toBe(5);
    store.getState().eventReceived({ type: 'dataset', summary: summary('train', 8), reason: 'loaded' });
    const slot = store.getState().data.train;
    expect(slot.status).toBe('ready');
    expect(slot.progress).toBeNull();
    expect(slot.summary?.stats.lines.read).toBe(8);
    expect(store.getState().data.test.status).toBe('empty');
  });

  it('keeps the previous summary when a later load fails, and names the command in a banner', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'bad', name: 'bad' } });
    store.getState().eventReceived({ type: 'error', command: 'loadData', message: 'not JSONL' });
    const s = store.getState();
    expect(s.data.train.status).toBe('ready');
    expect(s.data.train.summary?.stats.lines.read).toBe(8);
    expect(s.data.train.lastError).toBe('not JSONL');
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatchObject({ command: 'loadData', message: 'not JSONL' });
  });

  it('attributes a load error to the role the worker names, even when another load was sent later', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'test', source: { kind: 'url', url: 'bad', name: 'bad' } });
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'ok', name: 'ok' } });
    store.getState().eventReceived({ type: 'error', command: 'loadData', message: 'boom', role: 'test' });
    expect(store.getState().data.test.status).toBe('error');
    expect(store.getState().data.train.status).toBe('loading');
  });

  it('a refreshed summary during a load updates the figures but keeps the load running', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'train', source: { kind: 'url', url: 'x', name: 'x' } });
    store.getState().eventReceived({ type: 'dataset', summary: summary('train', 9), reason: 'refreshed' });
    expect(store.getState().data.train.status).toBe('loading');
    expect(store.getState().data.train.summary?.stats.lines.read).toBe(9);
  });

  it('attributes a load error to the role of the last loadData, and shows error with no previous data', () => {
    const store = replay([{ type: 'dataset', summary: summary('train', 8), reason: 'loaded' }]);
    store.getState().commandSent({ type: 'loadData', role: 'test', source: { kind: 'url', url: 'bad', name: 'bad' } });
    store.getState().eventReceived({ type: 'error', command: 'loadData', message: 'boom' });
    expect(store.getState().data.test.status).toBe('error');
    expect(store.getState().data.train.status).toBe('ready');
    expect(store.getState().data.train.lastError).toBeNull();
  });

  it('tracks an evaluation under way until its last candidate is scored', () => {
    const store = createEngineStore();
    store.getState().eventReceived({ type: 'evalProgress', set: 'val', done: 16, total: 40 });
    expect(store.getState().evalProgress).toEqual({ set: 'val', done: 16, total: 40 });
    store.getState().eventReceived({ type: 'evalProgress', set: 'val', done: 40, total: 40 });
    expect(store.getState().evalProgress).toBeNull();
  });

  it('dismissing a banner removes only that banner', () => {
    const store = replay([
      { type: 'error', command: 'rerank', message: 'a' },
      { type: 'error', command: null, message: 'b' },
    ]);
    store.getState().dismissError(store.getState().errors[0].id);
    expect(store.getState().errors.map((e) => e.message)).toEqual(['b']);
  });
});

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
    const store = replay([
      trainState('training'),
      { type: 'checkpoint', slot: 'best', epoch: 1, step: 10, valBestOfN: 0.6 },
    ]);
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

describe('engine store: requests and replies', () => {
  it('marks a request pending until its reply or an error naming it', () => {
    const store = createEngineStore();
    store.getState().commandSent({ type: 'inspect', set: 'val', filter: 'all', position: 0 });
    store.getState().commandSent({ type: 'rerank', question: 'q', candidates: 'a\n---\nb' });
    expect(store.getState().pending).toMatchObject({ inspect: true, rerank: true });
    store.getState().eventReceived({
      type: 'inspectGroup',
      set: 'val',
      filter: 'all',
      position: 0,
      matching: 3,
      groupIndex: 7,
      question: 'q',
      candidates: [],
    });
    store.getState().eventReceived({ type: 'error', command: 'rerank', message: 'no model' });
    const s = store.getState();
    expect(s.pending.inspect).toBe(false);
    expect(s.pending.rerank).toBe(false);
    expect(s.inspect?.groupIndex).toBe(7);
    expect(s.rerank).toBeNull();
  });

  it('stores the models list and clears selectModel/import', () => {
    const store = createEngineStore();
    store.getState().commandSent({ type: 'selectModel', slot: 'best' });
    store.getState().eventReceived({
      type: 'models',
      active: 'best',
      available: [
        {
          slot: 'best',
          source: 'trained',
          params: 123,
          model: { dModel: 64, nHeads: 4, nLayers: 2, ffnDim: 256, dropout: 0.2, maxLen: 256, positional: 'none' },
          description: 'epoch 1',
          epoch: 1,
          step: 10,
          valBestOfN: 0.5,
          warnings: [],
          revision: 3,
        },
      ],
    });
    const s = store.getState();
    expect(s.models.active).toBe('best');
    expect(s.models.available[0].params).toBe(123);
    expect(s.pending.selectModel).toBe(false);
  });
});

describe('engine store: results and the model they came from', () => {
  const info = (slot: ModelSlot, description: string, step: number | null = null, revision = 1): ModelInfo => ({
    slot,
    source: slot === 'imported' ? 'imported' : 'trained',
    params: 123,
    model: { dModel: 64, nHeads: 4, nLayers: 2, ffnDim: 256, dropout: 0.2, maxLen: 256, positional: 'none' },
    description,
    epoch: null,
    step,
    valBestOfN: null,
    warnings: [],
    revision,
  });
  const models = (active: ModelSlot, ...available: ModelInfo[]): WorkerEvent => ({ type: 'models', active, available });
  const inspected: WorkerEvent = { type: 'inspectGroup', set: 'test', filter: 'all', position: 0, matching: 3, groupIndex: 1, question: 'q', candidates: [] };
  const reranked = (slot: ModelSlot): WorkerEvent => ({ type: 'reranked', question: 'q', candidates: [], modelSlot: slot });
  const evaluated = (slot: ModelSlot): WorkerEvent => ({ type: 'evaluation', report: report({ set: 'test', epoch: 0, origin: 'request', modelSlot: slot }) });

  function staleness(store: ReturnType<typeof createEngineStore>) {
    const s = store.getState();
    return [isStale(s.inspect!.model!, s.models.available), isStale(s.rerank!.model, s.models.available), isStale(s.latestEval.test!.model, s.models.available)];
  }

  it('tags Inspect, Rerank and requested evaluations with their model, stale once another file is imported into its slot', () => {
    const store = replay([models('imported', info('imported', 'a.safetensors')), inspected, reranked('imported'), evaluated('imported')]);
    expect(store.getState().inspect!.model!.slot).toBe('imported');
    expect(staleness(store)).toEqual([false, false, false]);
    // Selecting another model leaves them valid: they still describe the imported one, and say so.
    store.getState().eventReceived(models('latest', info('imported', 'a.safetensors'), info('latest', 'epoch 1', 10)));
    expect(staleness(store)).toEqual([false, false, false]);
    store.getState().eventReceived(models('imported', info('imported', 'b.safetensors'), info('latest', 'epoch 1', 10)));
    expect(staleness(store)).toEqual([true, true, true]);
  });

  it('the same file imported again is another model: its revision tells them apart', () => {
    const store = replay([models('imported', info('imported', 'a.safetensors', null, 1)), inspected, reranked('imported'), evaluated('imported')]);
    expect(staleness(store)).toEqual([false, false, false]);
    store.getState().eventReceived(models('imported', info('imported', 'a.safetensors', null, 2)));
    expect(staleness(store)).toEqual([true, true, true]);
  });

  it('a new best checkpoint makes results of the best model stale; a new run those of the trained models', () => {
    const trained = [info('latest', 'epoch 1', 10), info('best', 'best: epoch 1', 10)];
    const store = replay([models('best', ...trained), inspected, reranked('best'), evaluated('best')]);
    store.getState().eventReceived({ type: 'checkpoint', slot: 'best', epoch: 2, step: 20, valBestOfN: 0.7 });
    store.getState().eventReceived(models('best', info('latest', 'epoch 2', 20), info('best', 'best: epoch 2', 20)));
    expect(staleness(store)).toEqual([true, true, true]);

    const again = replay([models('latest', ...trained), inspected, reranked('latest'), evaluated('latest')]);
    again.getState().eventReceived(models('latest', info('latest', 'training…')));
    expect(isStale(again.getState().rerank!.model, again.getState().models.available)).toBe(true);
    expect(isStale(again.getState().latestEval.test!.model, again.getState().models.available)).toBe(true);
  });
});

describe('engine store: Inspect after an evaluation', () => {
  const info = (slot: ModelSlot, step: number | null = null): ModelInfo => ({
    slot,
    source: slot === 'imported' ? 'imported' : 'trained',
    params: 123,
    model: { dModel: 64, nHeads: 4, nLayers: 2, ffnDim: 256, dropout: 0.2, maxLen: 256, positional: 'none' },
    description: slot,
    epoch: null,
    step,
    valBestOfN: null,
    warnings: [],
    revision: 1,
  });
  const models = (active: ModelSlot, ...available: ModelInfo[]): WorkerEvent => ({ type: 'models', active, available });
  const evaluated = (set: 'val' | 'test', slot: ModelSlot, origin: 'run' | 'request' = 'request'): WorkerEvent => ({ type: 'evaluation', report: report({ set, epoch: 0, origin, modelSlot: slot }) });

  it('asks for the first group of the set Inspect shows once an evaluation of it by the selected model arrives, and only until one is shown', () => {
    const store = replay([models('imported', info('imported')), evaluated('test', 'imported')]);
    const s = () => store.getState();
    expect(firstGroupToShow(s(), 'test')).toBe(s().latestEval.test!.report);
    // Inspect is on another set, which nothing evaluated yet.
    expect(firstGroupToShow(s(), 'val')).toBeNull();
    s().commandSent({ type: 'inspect', set: 'test', filter: 'all', position: 0 });
    expect(firstGroupToShow(s(), 'test')).toBeNull();
    s().eventReceived({ type: 'inspectGroup', set: 'test', filter: 'all', position: 0, matching: 3, groupIndex: 1, question: 'q', candidates: [] });
    expect(firstGroupToShow(s(), 'test')).toBeNull();
  });

  it('not for an evaluation of a model other than the selected one, nor while a run trains (then once it is over)', () => {
    const other = replay([models('latest', info('imported'), info('latest', 10)), evaluated('test', 'imported')]);
    expect(firstGroupToShow(other.getState(), 'test')).toBeNull();
    const run = replay([models('latest', info('latest', 0)), trainState('training', 3), evaluated('val', 'latest', 'run'), models('latest', info('latest', 3))]);
    expect(firstGroupToShow(run.getState(), 'val')).toBeNull();
    run.getState().eventReceived(trainState('done', 20));
    expect(firstGroupToShow(run.getState(), 'val')).toBe(run.getState().latestEval.val!.report);
  });
});

describe('engine store: a dead engine worker and its restart', () => {
  const backendInfo: BackendInfo = { backend: 'wasm', requested: 'wasm', adapter: null, threads: 1, reason: 'asked for', probes: [] };
  const savedRun = (state: 'running' | 'interrupted') => ({
    id: 'r1',
    createdAt: 1,
    datasetName: 'train.jsonl',
    datasetHash: null,
    split: { seed: 42, trainFraction: 0.8 },
    settings: DEFAULT_TRAIN_SETTINGS,
    model: DEFAULT_TRAIN_SETTINGS.model,
    state,
    checkpointStep: 6,
    totalSteps: 20,
    lastLoss: 0.5,
    bestValBestOfN: null,
  });

  it('ends what the dead worker was doing: the run shows stopped, no request stays pending, a load in progress ends', () => {
    const store = replay([{ type: 'ready', backend: backendInfo, hardwareConcurrency: 2 }, trainState('training', 7)]);
    store.getState().commandSent({ type: 'evaluate', set: 'val' });
    store.getState().commandSent({ type: 'loadData', role: 'test', source: { kind: 'url', url: 'x', name: 'x' } });
    store.getState().engineStopped({ verdict: 'gone', silentMs: 25_000 });
    const s = store.getState();
    expect(s.engineDown).toEqual({ verdict: 'gone', silentMs: 25_000 });
    expect(s.run.status.state).toBe('error');
    expect(s.run.status.step).toBe(7);
    expect(s.run.status.message).toMatch(/resumed from its last checkpoint/);
    expect(s.pending).toEqual({});
    expect(s.data.test.status).toBe('error');
    expect(isRunActive(s.run.status.state)).toBe(false);
  });

  it('leaves a finished run as it was', () => {
    const store = replay([trainState('training', 20), trainState('done', 20)]);
    store.getState().engineStopped({ verdict: 'silent', silentMs: 30_000 });
    expect(store.getState().run.status.state).toBe('done');
  });

  it('a restart starts from nothing, as after a reload, keeping the log; the new worker restores runs and data', () => {
    const store = replay([
      { type: 'ready', backend: backendInfo, hardwareConcurrency: 2 },
      { type: 'dataset', summary: summary('train', 8), reason: 'loaded' },
      { type: 'runs', runs: [savedRun('running')] },
      { type: 'log', level: 'info', message: 'hello' },
      { type: 'error', command: 'rerank', message: 'no model' },
      trainState('training', 7),
    ]);
    store.getState().engineStopped({ verdict: 'gone', silentMs: 25_000 });
    store.getState().engineRestarted();
    let s = store.getState();
    expect(s.engineDown).toBeNull();
    expect(s.backend).toBeNull();
    expect(s.run.status.state).toBe('idle');
    expect(s.savedRuns).toBeNull();
    expect(s.data.train.status).toBe('empty');
    expect(s.errors).toEqual([]);
    expect(s.log.map((l) => l.message)).toEqual(['hello']);
    store.getState().eventReceived({ type: 'ready', backend: backendInfo, hardwareConcurrency: 2 });
    store.getState().eventReceived({ type: 'dataset', summary: summary('train', 8), reason: 'loaded' });
    store.getState().eventReceived({ type: 'runs', runs: [savedRun('interrupted')] });
    s = store.getState();
    expect(s.data.train.status).toBe('ready');
    expect(s.savedRuns?.[0].state).toBe('interrupted');
  });
});
