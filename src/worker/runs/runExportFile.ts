import { type RunEnd, countAtMaxLen, metricsJsonl } from '../../engine/io/runExport.ts';
import type { RecordedSplit } from '../../engine/data/splitRecord.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import type { TrainSettings } from '../../engine/train/settings.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { RunRecorder } from './runRecorder.ts';

/** What Export run writes about the current (or last) run of this session. */
export interface ExportableRun {
  recorder: RunRecorder;
  settings: TrainSettings;
  cfg: ModelConfig;
  data: LoadedData;
  split: RecordedSplit;
  device: string;
  startedAt: number;
  skippedSteps: number;
  end: RunEnd | null;
}

/** The version `config` records carry (Python writes eorm's `__version__`). */
const APP_VERSION = 'eorm studio';

/** Export run: metrics.jsonl of the current (or last) run of this session. */
export function exportRunFile(run: ExportableRun | null, emit: (event: WorkerEvent) => void): void {
  if (!run) throw new Error('No run to export: train a model first (a run of this session is exported).');
  const { recorder, data, cfg, settings } = run;
  const { points, evaluations } = recorder.history;
  const text = metricsJsonl({
    version: APP_VERSION,
    config: cfg,
    settings,
    split: run.split,
    trainGroups: data.split.train.length,
    valGroups: data.split.val.length,
    candidates: data.dataset.candidateCount,
    rejectedLines: data.dataset.report.rejected,
    atMaxLen: countAtMaxLen(data.view.tokens, cfg.maxLen),
    device: run.device,
    points,
    evaluations,
    end: run.end,
  });
  const bytes = new TextEncoder().encode(text);
  const name = data.name.replace(/\.[^.]*$/, '');
  emit({ type: 'exported', fileName: `eorm-run-${name}-metrics.jsonl`, bytes: bytes.buffer, what: 'run' });
}
