/**
 * What the UI thread can send the engine worker: every command, in one union. Large buffers (files,
 * weights) travel as transferables. Types only, as all of protocols/: no code runs from these files.
 */
import type { TrainSettings } from '../../engine/train/settings.ts';
import type { BackendChoice } from '../backend/backendInfo.ts';
import type { PickRuleChoice } from '../../engine/score/picksRule.ts';
import type { DataRole, DataSource } from './data.ts';
import type { EvalSet, InspectFilter, ModelSlot, SaliencyTarget } from './models.ts';
import type { PicksSource } from './picks.ts';

export type Command =
  /**
   * `backend`: 'auto' (default) probes the browser's backends and takes the fastest; a name asks for one.
   * `tokenizerWorkers` overrides the pool size (default: spare cores, at most 4); benchmarks compare sizes.
   * `scoringWorkers` overrides the number of scoring workers on WASM (default: idle cores, at most 3; 0: none).
   */
  /** `lifeLock`: the name of the Web Lock the worker holds while it lives (see worker/lifeLock.ts). */
  | { type: 'init'; backend?: BackendChoice; tokenizerWorkers?: number; scoringWorkers?: number; lifeLock?: string }
  /** Switches the engine's backend between commands (refused while training). */
  | { type: 'setBackend'; backend: BackendChoice }
  /**
   * Benchmarks: installs the work counters (first time) and answers with their totals. `replay: false`
   * turns WebGPU's step replay off for this engine (the bench's figures without it); `profile: true` adds
   * where a replayed step's GPU time goes (it runs the step's kernels again: ask at the end of a run);
   * `precision: 'f32'` turns half precision off (the bench's float32 figures where the GPU has shader-f16).
   */
  | { type: 'counters'; replay?: boolean; profile?: boolean; precision?: 'f32' }
  /** Browser tests: destroys the WebGPU device, as a lost device (driver reset) would. */
  | { type: 'destroyDevice' }
  /** The UI's heartbeat: answered at once with `pong`, ahead of any queued command (see client/heartbeat.ts). */
  | { type: 'ping' }
  | { type: 'loadData'; role: DataRole; source: DataSource }
  | { type: 'downloadErrors'; role: DataRole; format: 'text' | 'csv' | 'jsonl' }
  | { type: 'estimate'; settings: TrainSettings }
  | { type: 'start'; settings: TrainSettings }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'stop' }
  | { type: 'evaluate'; set: EvalSet }
  /** The selection report of scores a file brings (a numeric field per candidate line), without a model. */
  | { type: 'evaluateScores'; role: DataRole; field: string; higherIsBetter: boolean; selectorFields?: string[] }
  | { type: 'inspect'; set: EvalSet; filter: InspectFilter; position: number }
  | { type: 'rerank'; question: string; candidates: string }
  /** "Why this energy?": the energy change when each step, then each token, of one candidate's answer is deleted (one candidate per command). */
  | { type: 'saliency'; target: SaliencyTarget; question: string; text: string }
  | { type: 'selectModel'; slot: ModelSlot }
  | { type: 'export' }
  /** The current (or last) run of this session as metrics.jsonl, in the records `eorm.train` writes. */
  | { type: 'exportRun' }
  | { type: 'import'; bytes: ArrayBuffer; fileName: string }
  /** Continues a saved run from its last checkpoint (its dataset restored from storage if needed). */
  | { type: 'resumeRun'; runId: string }
  | { type: 'deleteRun'; runId: string }
  /** Frees a run's checkpoint, keeping its record and curves. */
  | { type: 'deleteCheckpoint'; runId: string }
  | { type: 'deleteDataset'; key: string }
  /** A saved run's curves, for comparing runs. */
  | { type: 'runHistory'; runId: string }
  /** Pick answers: the selected model's pick for every question of a set (picks.jsonl), with progress. */
  | { type: 'picks'; set: PicksSource; rule: PickRuleChoice }
  | { type: 'picksControl'; action: 'pause' | 'resume' | 'cancel' }
  /** picks.jsonl as far as it is written. */
  | { type: 'picksDownload' };

export type CommandType = Command['type'];
