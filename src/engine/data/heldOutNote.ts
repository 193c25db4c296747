/**
 * What a model's validation figures are over, in plain words for wherever they are shown (Inspect's
 * evaluation, the model card): the held-out questions of the split the model records for this file, or,
 * when that cannot be known, the settings' split, which may include questions the model trained on. A
 * checkpoint chosen by these very figures (the best one) is labelled optimistic besides.
 */
import { type SplitForFile, describeSplit, shortHash } from './splitRecord.ts';

/**
 * 'model': the validation groups of the split the model records for this file; 'model-unchecked': the split
 * it records, which names no file; 'settings': the form's split, the model's being unknown or another file's.
 */
export type SplitSource = 'model' | 'model-unchecked' | 'settings';

/** The automation contract's `data-split-source` value of each source (docs/design.md). */
export const SPLIT_SOURCE_ATTR: Record<SplitSource, string> = {
  model: 'model',
  'model-unchecked': 'model, file not recorded: may include training questions',
  settings: 'settings: may include training questions',
};

export interface HeldOutNote {
  source: SplitSource;
  /** One or two sentences saying which questions the figures are over and how far to trust that. */
  sentence: string;
  /** The model was chosen by its validation figures on these questions (a best checkpoint): they are optimistic. */
  chosenOnValidation: boolean;
}

/** A model's training summary says it is a best checkpoint: exported from the best slot, or python/'s best.safetensors. */
export const isBestCheckpoint = (training: Record<string, unknown>): boolean => training.slot === 'best';

export const OPTIMISTIC =
  'This checkpoint was chosen as the best by its validation figures on these questions, so they are optimistic: a test set it was not chosen on gives figures to report.';

/**
 * The note for a validation of a model on `file`, split as `applies` says; `own`: the settings' split, used
 * when the model's does not apply; `chosen`: the model is a checkpoint chosen by its validation figures.
 */
export function heldOutNote(applies: SplitForFile, own: Parameters<typeof describeSplit>[0], file: string, chosen: boolean): HeldOutNote {
  let source: SplitSource;
  let sentence: string;
  if (applies.use === 'recorded' && applies.checked) {
    source = 'model';
    sentence = `Validation holds this model's own held-out questions: the split it records for ${file} (${describeSplit(applies.split)}).`;
  } else if (applies.use === 'recorded') {
    source = 'model-unchecked';
    sentence = `This model does not record which file it was trained on: validation uses the split it records (${describeSplit(applies.split)}) as if it were ${file}; if it was not, these figures may include training questions.`;
  } else {
    source = 'settings';
    const why =
      applies.why === 'otherFile'
        ? `was trained on another file (${shortHash(applies.dataset)})`
        : applies.why === 'unreadable'
          ? `records a split that cannot be read (${applies.problem})`
          : 'does not record the split it was trained with';
    sentence = `This model ${why}: validation uses the settings' split of ${file} (${describeSplit(own)}), so these figures may include training questions.`;
  }
  // A chosen checkpoint's figures are optimistic on the questions that chose it; on others they may hold training questions instead.
  const chosenOnValidation = chosen && source !== 'settings';
  return { source, sentence: chosenOnValidation ? `${sentence} ${OPTIMISTIC}` : sentence, chosenOnValidation };
}
