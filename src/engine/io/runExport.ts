/**
 * A run as metrics.jsonl, record for record what `eorm.train` writes (python/eorm/training/outputs.py, train.py,
 * runlog.py), so one plotting script reads a run of either: a "config" record, a "step" record per step,
 * an "eval" record per validation and an "end" record once the run is over. Keys and their order are
 * Python's; what the app does not measure per record is null (the steps' throughput, an evaluation's
 * time since the start), as Python writes null where it has no figure. NaN and ±Infinity become null
 * (JSON.stringify's rule, and runlog.finite's). An evaluation's `selection`, `allQuestionsAccuracy` and
 * `sources` follow `curve` when the report has them.
 */
import type { ModelConfig } from '../model/config.ts';
import { warmupSteps } from '../model/schedule.ts';
import type { TrainPoint } from '../train/loop.ts';
import type { TrainSettings } from '../train/settings.ts';
import { stepsPerEpoch, totalSteps } from '../train/stepCount.ts';
import type { RecordedSplit } from '../data/splitRecord.ts';
import type { TokenizedSet } from '../data/types.ts';

/** A validation as the app records it (the worker's EvalReport has these fields). */
export interface ExportedEvaluation {
  set: string;
  epoch: number;
  step: number;
  epochTrainLoss: number | null;
  isBest: boolean;
  summary: unknown;
  histogram: unknown;
  curve: unknown;
  selection?: unknown;
  allQuestionsAccuracy?: number | null;
  sources?: unknown;
}

export interface RunEnd {
  reason: 'finished' | 'stopped' | 'paused';
  steps: number;
  skippedSteps: number;
  bestValBestOfN: number | null;
  seconds: number | null;
}

export interface RunExport {
  /** The writer's version (Python writes eorm's `__version__`). */
  version: string;
  config: ModelConfig;
  settings: TrainSettings;
  split: RecordedSplit;
  trainGroups: number;
  valGroups: number;
  candidates: number;
  rejectedLines: number;
  /** Candidates whose input fills maxLen (cut there, or exactly that long). */
  atMaxLen: number;
  /** The backend that trained it. */
  device: string;
  points: ReadonlyArray<TrainPoint>;
  evaluations: ReadonlyArray<ExportedEvaluation>;
  /** null while the run goes on. */
  end: RunEnd | null;
}

/** Candidates whose ids, CLS included, are at least `maxLen` long: Python's `atMaxLen` (its ids are cut at maxLen). */
export function countAtMaxLen(tokens: Pick<TokenizedSet, 'offsets'>, maxLen: number): number {
  let n = 0;
  for (let i = 0; i + 1 < tokens.offsets.length; i++) if (tokens.offsets[i + 1] - tokens.offsets[i] >= maxLen) n++;
  return n;
}

/** The records, in the order `eorm.train` writes them. */
export function runRecords(run: RunExport): Array<Record<string, unknown>> {
  const runSteps = totalSteps(run.trainGroups, run.settings);
  const records: Array<Record<string, unknown>> = [
    {
      type: 'config',
      version: run.version,
      config: run.config,
      settings: run.settings,
      split: run.split,
      trainGroups: run.trainGroups,
      valGroups: run.valGroups,
      candidates: run.candidates,
      rejectedLines: run.rejectedLines,
      atMaxLen: run.atMaxLen,
      stepsPerEpoch: stepsPerEpoch(run.trainGroups, run.settings),
      totalSteps: runSteps,
      warmupSteps: warmupSteps(runSteps, run.settings.warmupRatio),
      device: run.device,
      autocast: null,
      step: 0,
    },
  ];
  // Python writes a validation after the steps before it: steps up to `step` first, then the evaluation.
  const points = [...run.points].sort((a, b) => a.step - b.step);
  let p = 0;
  const stepsBefore = (step: number) => {
    for (; p < points.length && points[p].step < step; p++) {
      const { step: s, epoch, loss, smoothed, lr, gradNorm } = points[p];
      records.push({ type: 'step', step: s, epoch, loss, smoothed, lr, gradNorm, stepsPerSec: null, tokensPerSec: null });
    }
  };
  for (const e of run.evaluations) {
    stepsBefore(e.step);
    records.push({
      type: 'eval',
      set: e.set,
      epoch: e.epoch,
      step: e.step,
      epochTrainLoss: e.epochTrainLoss,
      isBest: e.isBest,
      time: null,
      summary: e.summary,
      histogram: e.histogram,
      curve: e.curve,
      ...(e.selection != null ? { selection: e.selection } : {}),
      ...(e.allQuestionsAccuracy != null ? { allQuestionsAccuracy: e.allQuestionsAccuracy } : {}),
      ...(e.sources != null ? { sources: e.sources } : {}),
    });
  }
  stepsBefore(Infinity);
  if (run.end) records.push({ type: 'end', ...run.end });
  return records;
}

/** metrics.jsonl: one compact JSON object per line, each line ended by a newline. */
export function metricsJsonl(run: RunExport): string {
  return runRecords(run)
    .map((r) => `${JSON.stringify(r)}\n`)
    .join('');
}
