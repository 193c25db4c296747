import { activeProfile } from '../../engine/backend/profile.ts';
import { writeModel } from '../../engine/io/modelFile.ts';
import { type Params, paramsToArrays } from '../../engine/model/params.ts';
import type { SlotModel } from './modelSlots.ts';
import type { ModelSlot } from '../protocols/models.ts';

/**
 * A model as a .safetensors file: PyTorch state_dict layout, config, tokenizer and training summary in
 * the metadata. `params` are the weights to write: a snapshot, or weights nothing changes meanwhile.
 */
export async function exportModel(model: SlotModel, params: Params, slot: ModelSlot): Promise<{ fileName: string; bytes: Uint8Array<ArrayBuffer> }> {
  const tensors = await paramsToArrays(params, activeProfile());
  const bytes = writeModel({
    cfg: model.cfg,
    tensors,
    metadata: {
      tokenizer: 'r50k_base (GPT-2 BPE, gpt-tokenizer)',
      training: { slot, source: model.source, description: model.description, ...model.training, exportedAt: new Date().toISOString() },
    },
  });
  const { dModel, nLayers, maxLen } = model.cfg;
  return { fileName: `eorm-${slot}-d${dModel}-l${nLayers}-len${maxLen}.safetensors`, bytes };
}
