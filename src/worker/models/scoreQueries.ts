/**
 * Evaluate in the worker the scores a loaded file brings (engine/score/scoreField.ts): no model, the file's own
 * numeric field per candidate line, the whole selection report, sent as `scoresEvaluated`.
 */
import { withSources } from '../../engine/data/candidateSources.ts';
import { scoreFieldEvaluation } from '../../engine/score/scoreField.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { Datasets } from '../data/datasets.ts';
import type { DataRole } from '../protocols/data.ts';

export function evaluateScores(
  datasets: Datasets,
  emit: (event: WorkerEvent) => void,
  seed: number,
  cmd: { role: DataRole; field: string; higherIsBetter: boolean; selectorFields?: string[] },
): void {
  const data = datasets.require(cmd.role);
  const field = cmd.field.trim();
  if (field === '') throw new Error('Name the field that holds each candidate’s score (e.g. energy, or score).');
  const e = scoreFieldEvaluation(
    data.dataset.groups,
    withSources(data.view, data.dataset),
    data.answers,
    field,
    cmd.higherIsBetter,
    seed,
    cmd.selectorFields ?? [],
  );
  const report = {
    summary: e.summary,
    curve: e.curve,
    histogram: e.histogram,
    sources: e.sources,
    selection: e.selection,
    allQuestionsAccuracy: e.allQuestionsAccuracy,
  };
  emit({ type: 'scoresEvaluated', role: cmd.role, dataName: data.name, field, higherIsBetter: cmd.higherIsBetter, report });
}
