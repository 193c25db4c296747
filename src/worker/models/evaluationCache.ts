import type { HeldOutNote } from '../../engine/data/heldOutNote.ts';
import type { Evaluation } from '../../engine/score/evaluation.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { Datasets } from '../data/datasets.ts';
import type { ModelSlots } from './modelSlots.ts';
import type { DataRole } from '../protocols/data.ts';
import type { EvalSet, ModelSlot } from '../protocols/models.ts';

/** An evaluation of one set by one model state, kept for Inspect. */
export interface CachedEvaluation {
  /** Set, data version, slot and revision: what was evaluated (see EvaluationCache.key). */
  model: string;
  /** Optimizer steps of the latest model when evaluated; 0 for the other slots. */
  step: number;
  /** The data scored: Inspect takes questions and texts from it, never from data loaded since. */
  data: LoadedData;
  groups: Uint32Array;
  maxLen: number;
  evaluation: Evaluation;
  /** A validation's: which split its groups come from (the model's, or the settings' when the model's cannot be known). */
  heldOut?: HeldOutNote | null;
}

/** Validation is scored on the training file's split; the test set is the test file. */
export const roleOf = (set: EvalSet): DataRole => (set === 'val' ? 'train' : 'test');

/** The set whose evaluations read the data of `role`. */
export const setOf = (role: DataRole): EvalSet => (role === 'train' ? 'val' : 'test');

/**
 * The last evaluation of each set, for Inspect and repeated requests. An entry is keyed by what it
 * depends on (data version, slot, the slot's revision), so replacing either makes it stale; entries are
 * also dropped on replacement, so that they do not keep old data alive.
 */
export class EvaluationCache {
  private readonly entries = new Map<EvalSet, CachedEvaluation>();

  constructor(
    private readonly datasets: Datasets,
    private readonly models: ModelSlots,
  ) {}

  /**
   * What an evaluation of `set` by the model in `slot` depends on, the latest model's step aside. A test
   * evaluation's vote temperature is fitted on the training split, so its key holds the training data's
   * version too (a new training file or split changes the test figures).
   */
  key(set: EvalSet, slot: ModelSlot): string {
    const fittedOn = set === 'test' ? `+train${this.datasets.version('train')}` : '';
    return `${set}:${this.datasets.version(roleOf(set))}${fittedOn}:${slot}:${this.models.revision(slot) ?? -1}`;
  }

  /**
   * The evaluation of the selected model on `set`, if it still describes that model. `latestStep`: the
   * latest model's optimizer steps; `training`: a run is in progress.
   */
  get(set: EvalSet, latestStep: number, training: boolean): CachedEvaluation | null {
    const c = this.entries.get(set);
    const slot = this.models.active;
    if (!c || c.model !== this.key(set, slot)) return null;
    if (slot !== 'latest' || c.step === latestStep) return c;
    // While training, the latest model moves every step: its last evaluation stands for it instead of racing it.
    return training ? c : null;
  }

  /**
   * Keeps an evaluation by the model in `slot`; returns the entry. `key`: what it was computed from, taken
   * when the work began (a training file loaded meanwhile must leave a test evaluation stale); default: now.
   */
  store(set: EvalSet, slot: ModelSlot, evaluated: Omit<CachedEvaluation, 'model'>, key = this.key(set, slot)): CachedEvaluation {
    const entry = { ...evaluated, model: key };
    this.entries.set(set, entry);
    return entry;
  }

  forget(set: EvalSet): void {
    this.entries.delete(set);
  }

  clear(): void {
    this.entries.clear();
  }
}
