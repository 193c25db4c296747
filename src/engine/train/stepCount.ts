import type { TrainSettings } from './settings.ts';

/** Groups one optimizer step takes: the setting, floored, at least 1 (the loop, the run record and the progress bar agree on it). */
export function groupsPerStep(settings: Pick<TrainSettings, 'groupsPerStep'>): number {
  return Math.max(1, Math.floor(settings.groupsPerStep));
}

/** Optimizer steps in one epoch over `trainGroups` groups (the last step takes what is left). */
export function stepsPerEpoch(trainGroups: number, settings: Pick<TrainSettings, 'groupsPerStep'>): number {
  return Math.ceil(trainGroups / groupsPerStep(settings));
}

/** Optimizer steps of a whole run. */
export function totalSteps(trainGroups: number, settings: Pick<TrainSettings, 'groupsPerStep' | 'epochs'>): number {
  return settings.epochs * stepsPerEpoch(trainGroups, settings);
}
