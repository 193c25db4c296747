/** Worker events for the store tests, and a store that replays them. */
import type { DatasetSummary } from '../../worker/protocols/data.ts';
import type { WorkerEvent } from '../../worker/protocols/events.ts';
import type { EvalReport } from '../../worker/protocols/models.ts';
import type { TrainPoint } from '../../worker/protocols/training.ts';
import { createEngineStore } from '../engineStore.ts';

export const replay = (events: WorkerEvent[]) => {
  const store = createEngineStore();
  for (const ev of events) store.getState().eventReceived(ev);
  return store;
};

export const point = (step: number, loss: number, epoch = 1): TrainPoint => ({ step, epoch, loss, smoothed: loss, lr: 1e-4, gradNorm: 0.5 });

export function summary(role: 'train' | 'test', lines: number): DatasetSummary {
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
      answers: {
        shareWithTextAnswer: 1,
        medianDistinctAnswers: 2,
        answerFieldDisagreements: 0,
        labelledFromGold: 0,
        labelAndGold: 0,
        labelGoldDisagreements: 0,
        disagreements: [],
      },
    },
    tokens: { maxLen: 64, truncated: 0, min: 3, median: 5, max: 9, mean: 5, histogram: { edges: [0, 32, 64], counts: [4, 0] } },
    firstErrors: [],
    errorCounts: {
      invalid_json: 0,
      not_object: 0,
      missing_field: 0,
      wrong_type: 0,
      empty_question: 0,
      bad_label: 0,
      line_too_long: 0,
      conflicting_question: 0,
      request_failed: 0,
    },
    trainableGroups: 2,
    split: role === 'train' ? { seed: 42, train: 1, val: 1 } : null,
    timing: { parseSeconds: 0, tokenizeSeconds: 0, workers: 1 },
  };
}

export function report(over: Partial<EvalReport> & { bestOfN?: number }): EvalReport {
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

export const trainState = (state: 'idle' | 'compiling' | 'training' | 'paused' | 'done' | 'error', step = 0): WorkerEvent => ({
  type: 'trainState',
  state,
  step,
  epoch: 1,
  totalSteps: 20,
  totalEpochs: 2,
});
