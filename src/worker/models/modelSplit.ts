import { type HeldOutNote, heldOutNote, isBestCheckpoint } from '../../engine/data/heldOutNote.ts';
import { DEFAULT_TRAIN_FRACTION } from '../../engine/data/split.ts';
import { splitForFile } from '../../engine/data/splitRecord.ts';
import { recordedShape } from '../../engine/data/olderRecords.ts';
import type { LoadedData } from '../data/dataLoader.ts';
import type { Datasets } from '../data/datasets.ts';
import type { SlotModel } from './modelSlots.ts';
import type { ModelSlot } from '../protocols/models.ts';

/** The training file as a model's validation reads it: split as the model records, and what to say about that. */
export interface ModelSplit {
  data: LoadedData;
  note: HeldOutNote;
}

/**
 * The loaded training file split as `model` (in `slot`) records it when it was trained on that file, so
 * its validation holds none of its training questions (the rule of continueFrom and python/'s eorm.score);
 * else split as the settings say, and the note says the figures may include training questions. The
 * training role keeps the form's split either way.
 */
export function modelSplit(datasets: Datasets, model: SlotModel, slot: ModelSlot): ModelSplit {
  const loaded = datasets.require('train');
  const applies = splitForFile(model.training, loaded.contentHash);
  const own = {
    seed: loaded.splitSeed,
    trainFraction: loaded.splitFraction ?? DEFAULT_TRAIN_FRACTION,
    kind: loaded.split.kind,
    holdoutSources: loaded.split.holdoutSources,
  };
  const data = applies.use === 'recorded' ? datasets.splitAs(loaded, applies.split.seed, applies.split.trainFraction, recordedShape(applies.split)) : loaded;
  const chosen = slot === 'best' || isBestCheckpoint(model.training);
  return { data, note: heldOutNote(applies, own, loaded.name, chosen) };
}
