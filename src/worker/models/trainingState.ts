import type { RunControl } from '../../engine/train/runControl.ts';
import type { TrainSettings } from '../../engine/train/settings.ts';

/**
 * What the model queries read of the training run (runs/trainingRuns.ts is one): the model in training moves
 * every step, so its figures and weights are taken at a step, between two steps while it runs.
 */
export interface TrainingState {
  readonly latestStep: number;
  readonly settings: TrainSettings;
  isTraining(): boolean;
  control(): RunControl;
}
