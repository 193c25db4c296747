import { writeModel } from '../engine/io/modelFile.ts';
import { paramsToArrays } from '../engine/model/params.ts';
import type { SlotModel } from './modelSlots.ts';
import type { ModelSlot } from './protocol.ts';

/** The selected model as a .safetensors file: PyTorch state_dict layout, config, tokenizer and training summary in the metadata. */
export async function exportModel(model: SlotModel, slot: ModelSlot): Promise<{ fileName: string; bytes: Uint8Array<ArrayBuffer> }> {
  const tensors = await paramsToArrays(model.params);
  const bytes = writeModel({
    cfg: model.cfg,
    tensors,
    metadata: { tokenizer: 'r50k_base (GPT-2 BPE, gpt-tokenizer)', training: { slot, source: model.source, description: model.description, ...model.training, exportedAt: new Date().toISOString() } },
  });
  const { dModel, nLayers, maxLen } = model.cfg;
  return { fileName: `eorm-${slot}-d${dModel}-l${nLayers}-len${maxLen}.safetensors`, bytes };
}
