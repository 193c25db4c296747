/** What the panels can ask the engine to do; each is one typed command. */
import { SAMPLE_DATASET_PATH, SAMPLE_LICENSE_PATH } from '../engine/data/sample.ts';
import type { TrainSettings } from '../engine/train/settings.ts';
import type { DataRole } from '../worker/protocols/data.ts';
import type { EvalSet, InspectFilter, ModelSlot } from '../worker/protocols/models.ts';
import type { PickRuleChoice, PicksSource } from '../worker/protocols/picks.ts';
import { send } from './engineConnection.ts';

export const SAMPLE_NAME = 'GSM8K sample (OpenAI, MIT)';

/** Absolute, because the worker resolves relative URLs against its own script, not the page. */
function publicUrl(path: string): string {
  return new URL(`${import.meta.env.BASE_URL}${path}`, window.location.href).href;
}

export const sampleLicenseUrl = (): string => publicUrl(SAMPLE_LICENSE_PATH);

export function loadSample(): void {
  send({ type: 'loadData', role: 'train', source: { kind: 'url', url: publicUrl(SAMPLE_DATASET_PATH), name: SAMPLE_NAME } });
}

export function loadFile(role: DataRole, file: File): void {
  send({ type: 'loadData', role, source: { kind: 'file', file } });
}

/** Several files dropped or picked together: read as one dataset (one file: as loadFile). */
export function loadFiles(role: DataRole, files: File[]): void {
  if (files.length === 1) loadFile(role, files[0]);
  else if (files.length > 1) send({ type: 'loadData', role, source: { kind: 'files', files } });
}

export function downloadErrors(role: DataRole, format: 'text' | 'csv' | 'jsonl'): void {
  send({ type: 'downloadErrors', role, format });
}

export function startTraining(settings: TrainSettings): void {
  send({ type: 'start', settings });
}

export const pauseTraining = (): void => send({ type: 'pause' });
export const resumeTraining = (): void => send({ type: 'resume' });
export const stopTraining = (): void => send({ type: 'stop' });
export const evaluate = (set: EvalSet): void => send({ type: 'evaluate', set });

export function inspect(set: EvalSet, filter: InspectFilter, position: number): void {
  send({ type: 'inspect', set, filter, position });
}

export function rerank(question: string, candidates: string): void {
  send({ type: 'rerank', question, candidates });
}

export const resumeSavedRun = (runId: string): void => send({ type: 'resumeRun', runId });
export const deleteSavedRun = (runId: string): void => send({ type: 'deleteRun', runId });
export const deleteCheckpoint = (runId: string): void => send({ type: 'deleteCheckpoint', runId });
export const requestRunHistory = (runId: string): void => send({ type: 'runHistory', runId });
export const deleteStoredDataset = (key: string): void => send({ type: 'deleteDataset', key });
export const selectModel = (slot: ModelSlot): void => send({ type: 'selectModel', slot });
export const exportWeights = (): void => send({ type: 'export' });
export const exportRun = (): void => send({ type: 'exportRun' });
export const pickAnswers = (set: PicksSource, rule: PickRuleChoice): void => send({ type: 'picks', set, rule });
export const controlPicks = (action: 'pause' | 'resume' | 'cancel'): void => send({ type: 'picksControl', action });
export const downloadPicks = (): void => send({ type: 'picksDownload' });

export async function importWeights(file: File): Promise<void> {
  const bytes = await file.arrayBuffer();
  send({ type: 'import', bytes, fileName: file.name }, [bytes]);
}

/** The selection report of the scores a loaded file brings (a numeric field per candidate line), without a model; the selector also reads `selectorFields`. */
export const evaluateScores = (role: DataRole, field: string, higherIsBetter: boolean, selectorFields: string[]): void =>
  send({ type: 'evaluateScores', role, field, higherIsBetter, selectorFields });
