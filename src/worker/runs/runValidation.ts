import { heldOutNote } from '../../engine/data/heldOutNote.ts';
import { DEFAULT_TRAIN_FRACTION } from '../../engine/data/split.ts';
import { type RecordedSplit, splitRecord } from '../../engine/data/splitRecord.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import { bestMetricOf, metricValue, selectionOf } from '../../engine/train/bestMetric.ts';
import type { RunEvaluation } from '../../engine/train/loop.ts';
import type { TrainSettings } from '../../engine/train/settings.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { EvaluationCache } from '../models/evaluationCache.ts';
import type { ModelSlots } from '../models/modelSlots.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { EvalReport } from '../protocols/models.ts';
import type { RunRecorder } from './runRecorder.ts';

/** What a validation during the run writes to. */
export interface ValidationDeps {
  emit: (event: WorkerEvent) => void;
  models: ModelSlots;
  cache: EvaluationCache;
  /** Sends the model slots to the UI. */
  emitModels: () => void;
}

/** The split `d` holds, as model files and stored runs record it. */
export function splitOf(d: LoadedData): RecordedSplit {
  return splitRecord(d.splitSeed, d.splitFraction ?? DEFAULT_TRAIN_FRACTION, d.contentHash, d.split.kind ?? 'mixed', d.split.holdoutSources);
}

/** A validation during the run: cached for Inspect, written into the latest model's summary, the best model kept, recorded and reported. */
export function runValidated(deps: ValidationDeps, e: RunEvaluation, settings: TrainSettings, data: LoadedData, cfg: ModelConfig, recorder: RunRecorder): void {
  const { emit, models } = deps;
  const { summary: s, curve, histogram } = e.evaluation;
  const selection = selectionOf(e.evaluation);
  // The run validates on its own split, which the latest model records.
  const heldOut = heldOutNote({ use: 'recorded', split: splitOf(data), checked: true }, splitOf(data), data.name, false);
  const report: EvalReport = {
    set: 'val',
    epoch: e.epoch,
    step: e.step,
    epochTrainLoss: e.epochTrainLoss,
    summary: s,
    curve,
    histogram,
    sources: e.evaluation.sources,
    isBest: e.isBest,
    origin: 'run',
    modelSlot: 'latest',
    selection,
    allQuestionsAccuracy: e.evaluation.allQuestionsAccuracy,
    heldOut,
  };
  deps.cache.store('val', 'latest', { step: e.step, data, groups: data.split.val, maxLen: cfg.maxLen, evaluation: e.evaluation, heldOut });
  const latest = models.get('latest')!;
  latest.description = `epoch ${e.epoch}, step ${e.step}, val Best-of-N ${s.bestOfN.toFixed(3)}`;
  // `split` is what continuing and python/'s --init honour; splitSeed stays for older readers.
  latest.training = {
    dataset: data.name,
    trainGroups: data.split.train.length,
    valGroups: data.split.val.length,
    splitSeed: data.splitSeed,
    split: splitOf(data),
    settings,
    epoch: e.epoch,
    step: e.step,
    valBestOfN: s.bestOfN,
    epochTrainLoss: e.epochTrainLoss,
    // Rerank's probability map (fitted on the held-out questions), and what chose the best checkpoint (both recorded in exported files).
    ...(selection ? { temperature: selection.temperature, temperatureSource: selection.temperatureSource, probabilityMap: selection.probabilityMap } : {}),
    bestMetric: bestMetricOf(settings),
    bestMetricValue: metricValue(e.evaluation, bestMetricOf(settings)),
  };
  if (e.isBest) {
    models.snapshotBest(`best: ${latest.description}`, latest.training);
    emit({ type: 'checkpoint', slot: 'best', epoch: e.epoch, step: e.step, valBestOfN: s.bestOfN });
  }
  recorder.evaluation(report);
  emit({ type: 'evaluation', report });
  deps.emitModels();
}
