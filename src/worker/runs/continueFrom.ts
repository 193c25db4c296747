import { DEFAULT_TRAIN_FRACTION } from '../../engine/data/split.ts';
import { type RecordedSplit, describeSplit, shortHash, splitForFile } from '../../engine/data/splitRecord.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import { type Params, cloneParams } from '../../engine/model/params.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { ModelSlots } from '../models/modelSlots.ts';
import type { WorkerEvent } from '../protocols/events.ts';

/**
 * Trainable copy of the selected model, and the split to train it with: the one it was trained with
 * (seed and fraction) when that was this file, so validation holds none of its training groups; the
 * run's own when it was another file. Says so whenever it cannot be sure.
 */
export function continueFrom(
  models: ModelSlots,
  loaded: LoadedData,
  seed: number,
  emit: (event: WorkerEvent) => void,
): { cfg: ModelConfig; params: Params; split: Pick<RecordedSplit, 'seed' | 'trainFraction' | 'kind' | 'holdoutSources'> } {
  const from = models.require();
  const slot = models.active;
  const own = { seed, trainFraction: DEFAULT_TRAIN_FRACTION };
  // An imported model is named by its file; the others by their slot.
  const Named = slot === 'imported' ? from.description : `The ${slot} model`;
  const warn = (message: string) => emit({ type: 'log', level: 'warn', message });
  emit({ type: 'log', level: 'info', message: `Continuing from the ${slot} model (its config wins over the form's model fields).` });
  const pick = (split: Pick<RecordedSplit, 'seed' | 'trainFraction' | 'kind' | 'holdoutSources'>) => ({
    cfg: from.cfg,
    params: cloneParams(from.params, true),
    split,
  });
  const applies = splitForFile(from.training, loaded.contentHash);
  if (applies.use === 'own') {
    if (applies.why === 'unreadable') {
      warn(
        `${Named} records a split that cannot be read (${applies.problem}): this run uses its own split (${describeSplit(own)}); if the model was trained on this file, validation may hold groups it trained on.`,
      );
    } else if (applies.why === 'none') {
      warn(
        `${Named} does not record the split it was trained with: if it was trained on this data with another seed, validation may hold groups it trained on.`,
      );
    } else {
      warn(
        `${Named} was trained on another file (${shortHash(applies.dataset)}): its split does not apply to ${loaded.name}, so validation may hold groups it trained on — figures are not comparable. This run uses its own split (${describeSplit(own)}).`,
      );
    }
    return pick(own);
  }
  const trained = applies.split;
  if (!applies.checked) {
    warn(
      `${Named} does not record which file it was trained on: this run kept its split (${describeSplit(trained)}), which keeps its training groups out of validation only if that file was ${loaded.name}; otherwise figures are not comparable.`,
    );
  } else {
    emit({
      type: 'log',
      level: 'info',
      message: `Keeping the ${slot} model's split (${describeSplit(trained)}): it was trained on this file, so validation holds none of its training groups; seed ${seed} sets the order, dropout and nothing else.`,
    });
  }
  return pick(trained);
}
