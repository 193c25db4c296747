/**
 * What the engine worker can send the UI thread: every event, in one union. Large buffers travel as
 * transferables.
 */
import type { RunProgress, TrainPoint } from '../../engine/train/loop.ts';
import type { CandidateSaliency } from '../../engine/score/explainEnergy.ts';
import type { ReplayProfile } from '../../engine/kernels/webgpu/replay/stepReplay.ts';
import type { BackendInfo } from '../backend/backendInfo.ts';
import type { EngineCounters } from '../backend/counters.ts';
import type { CommandType } from './commands.ts';
import type { DataRole, DatasetSummary, IngestProgressEvent, StoredDatasetInfo } from './data.ts';
import type { EvalReport, EvalSet, InspectFilter, ModelInfo, ModelSlot, RankedCandidate, RerankAnswer, SaliencyTarget } from './models.ts';
import type { PicksProgress } from './picks.ts';
import type { Estimate, SavedRunInfo, TrainState } from './training.ts';

export type WorkerEvent =
  | { type: 'ready'; backend: BackendInfo; hardwareConcurrency: number }
  | { type: 'pong' }
  | ({ type: 'counters'; replayProfile?: ReplayProfile | null } & EngineCounters)
  | { type: 'log'; level: 'info' | 'warn'; message: string }
  /** `role` names the data slot when a loadData failed. */
  | { type: 'error'; command: CommandType | null; message: string; role?: DataRole }
  | IngestProgressEvent
  /** 'loaded': a load finished; 'refreshed': the same data re-summarised (new maxLen or split seed). */
  | { type: 'dataset'; summary: DatasetSummary; reason: 'loaded' | 'refreshed' }
  /** Said about a role's data outside a load: after a reload, that the file loaded last is not the one brought back. */
  | { type: 'dataNote'; role: DataRole; message: string }
  | { type: 'errorList'; fileName: string; mime: string; text: string }
  | { type: 'estimate'; estimate: Estimate }
  | { type: 'trainState'; state: TrainState; step: number; epoch: number; totalSteps: number; totalEpochs: number; message?: string }
  | ({ type: 'progress' } & RunProgress)
  | { type: 'metrics'; points: TrainPoint[] }
  | { type: 'evaluation'; report: EvalReport }
  /** Candidates scored so far by an evaluation under way (the run's validation, or one asked for). */
  | { type: 'evalProgress'; set: EvalSet; done: number; total: number }
  | { type: 'checkpoint'; slot: 'best'; epoch: number; step: number; valBestOfN: number }
  | { type: 'complete'; reason: 'finished' | 'stopped'; steps: number; bestValBestOfN: number | null }
  | { type: 'models'; active: ModelSlot; available: ModelInfo[] }
  | {
      type: 'inspectGroup';
      set: EvalSet;
      filter: InspectFilter;
      position: number;
      matching: number;
      groupIndex: number;
      question: string;
      candidates: RankedCandidate[];
    }
  /** `answers`: the candidates grouped by final answer, at the selected model's temperature (`temperatureSource` says where it came from). */
  | {
      type: 'reranked';
      question: string;
      candidates: RankedCandidate[];
      modelSlot: ModelSlot;
      answers: RerankAnswer[];
      temperature: number;
      temperatureSource: string;
    }
  | ({ type: 'saliency'; target: SaliencyTarget; modelSlot: ModelSlot } & CandidateSaliency)
  /** Reduced texts of a "Why this energy?" scored so far; `total` grows once the token grain's step is known. */
  | { type: 'saliencyProgress'; target: SaliencyTarget; done: number; total: number }
  /** A file to save: the weights, the model card written beside them, or a run's metrics.jsonl. */
  | { type: 'exported'; fileName: string; bytes: ArrayBuffer; what?: 'weights' | 'card' | 'run' | 'picks' }
  | ({ type: 'picksProgress' } & PicksProgress)
  /** The runs saved in this browser, sent at start and whenever one changes state or is deleted. */
  | { type: 'runs'; runs: SavedRunInfo[] }
  /** The tokenized files kept in this browser, sent at start and whenever one is stored or deleted. */
  | { type: 'storedDatasets'; datasets: StoredDatasetInfo[] }
  /** A saved run's smoothed loss ([step, value], at most a few hundred points) and validation Best-of-N by step. */
  | { type: 'runHistory'; runId: string; loss: Array<[number, number]>; valBestOfN: Array<[number, number]> };
