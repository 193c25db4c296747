/**
 * The engine worker's protocol (commands.ts, events.ts): training runs, their estimate and the runs kept.
 */
import type { ModelSettings, TrainSettings } from '../../engine/train/settings.ts';
import type { TrainPoint } from '../../engine/train/loop.ts';

export type TrainState = 'idle' | 'compiling' | 'training' | 'paused' | 'done' | 'error';
export type { ModelSettings, TrainPoint };

export interface Estimate {
  params: number;
  /** Rough peak GPU memory for training: weights, AdamW state, gradients and activations. */
  trainingBytes: number;
  /** The largest single buffer (the embedding table or the attention scores of one micro-batch). */
  largestBufferBytes: number;
  /** Human warnings, e.g. when a buffer exceeds the adapter's maxStorageBufferBindingSize. */
  warnings: string[];
}

/** 'interrupted': it was running when its page went away (or its worker failed); 'paused' includes stopped by the user. */
export type SavedRunState = 'running' | 'paused' | 'interrupted' | 'done';

/** A run kept in this browser, as the runs list shows it. */
export interface SavedRunInfo {
  id: string;
  createdAt: number;
  datasetName: string;
  /** Its training file's content hash ("sha256:<hex>"); null when the file was not hashed. */
  datasetHash: string | null;
  /** The split it trained with (a run continued from a model keeps that model's). */
  split: { seed: number; trainFraction: number };
  /** The form's settings when it started; its model fields are what a fresh run trains. */
  settings: TrainSettings;
  /** The model it actually trained: its stored config (a continued run trains the model it continued). */
  model: ModelSettings;
  state: SavedRunState;
  /** Step of its last stored checkpoint (0: none, so it cannot be resumed). */
  checkpointStep: number;
  totalSteps: number;
  /** Last smoothed training loss and best validation Best-of-N recorded. */
  lastLoss: number | null;
  bestValBestOfN: number | null;
}
