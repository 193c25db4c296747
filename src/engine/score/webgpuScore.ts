import type * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { stepReplay } from '../kernels/webgpu/replay/stepReplay.ts';
import type { ModelConfig } from '../model/config.ts';
import { type ParamTensors, energies } from '../model/transebm.ts';
import { bucketUp, padLength } from '../model/shapeBuckets.ts';

const modelIds = new WeakMap<object, number>();
let nextModel = 0;
const modelId = (params: ParamTensors) => {
  let id = modelIds.get(params);
  if (id === undefined) modelIds.set(params, (id = nextModel++));
  return id;
};

/**
 * Eval-mode energies of one scoring batch on WebGPU, recorded once per shape and model and replayed
 * (replay/stepReplay.ts): the batch padded to a bucket of candidates (the pad token alone) and of
 * length. Returns [padded count] energies on the device; the first `batch.length` are the batch's.
 */
export function webgpuScore(
  cfg: ModelConfig,
  params: ParamTensors,
  batch: ReadonlyArray<ArrayLike<number>>,
  length: number,
  profile: BackendProfile,
): tf.Tensor1D {
  const n = bucketUp(batch.length);
  // The batch's planned length (scoring.ts), padded for replay.
  const T = padLength(length, cfg.maxLen, true);
  const ids = new Int32Array(n * T).fill(cfg.padId);
  const lengths = new Int32Array(n).fill(1);
  batch.forEach((c, b) => {
    ids.set(c, b * T);
    lengths[b] = c.length;
  });
  const io = {
    inputs: [
      { data: ids, shape: [n, T] },
      { data: lengths, shape: [n] },
    ],
    externals: [...params.values()],
  };
  const key = `score model ${modelId(params)} ${n}×${T}`;
  return stepReplay().run(key, io, ([idsT, lengthsT]) => [
    energies(cfg, params, { ids: idsT as tf.Tensor2D, lengths: lengthsT as tf.Tensor1D }, { profile }),
  ])[0] as tf.Tensor1D;
}
