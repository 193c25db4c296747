import * as tf from '@tensorflow/tfjs';
import { gatherTableRows } from '../kernels/rowGather.ts';
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';

/**
 * Another thread that scores batches with its own copy of the weights: how scoring uses a second core
 * (tfjs-wasm's products run on one). Each scoring call hands each peer its model under an id of its own,
 * then batches under that id as they come free, and releases the id when it is done. Calls can overlap
 * (an Inspect while the run validates), and each call compacts the embedding its own way, so a batch
 * must name the weights it is for. A peer that fails hands its batch back and the engine scores it itself.
 */
export interface ScoringPeer {
  load(call: number, model: PeerModel): Promise<void>;
  /** Eval-mode energies of one batch (ids in the numbering of `call`'s model), padded to `length`. */
  score(call: number, batch: Int32Array[], length: number): Promise<Float32Array>;
  /** The call is over: the peer drops its weights, and skips its batches still queued. */
  release(call: number): void;
}

/**
 * The weights a peer needs for one call: every parameter, with the embedding cut to the rows the
 * candidates use (a few thousand of 50,257) and the config's vocabulary and special ids renumbered to match.
 */
export interface PeerModel {
  cfg: ModelConfig;
  weights: Array<[string, Float32Array]>;
}

export interface CompactModel {
  model: PeerModel;
  /** A candidate's ids in the compact numbering. */
  renumber(ids: ArrayLike<number>): Int32Array;
}

export async function compactModel(cfg: ModelConfig, params: ParamTensors, candidates: ReadonlyArray<ArrayLike<number>>): Promise<CompactModel> {
  const index = new Map<number, number>();
  const add = (id: number) => {
    if (!index.has(id)) index.set(id, index.size);
  };
  [cfg.clsId, cfg.sepId, cfg.padId].forEach(add);
  for (const c of candidates) for (let t = 0; t < c.length; t++) add(c[t]);
  const rows = tf.tensor1d(Int32Array.from(index.keys()), 'int32');
  const emb = gatherTableRows(params.get('emb.weight') as tf.Tensor2D, rows);
  rows.dispose();
  const names = [...params.keys()];
  const values = await Promise.all(names.map((name) => (name === 'emb.weight' ? emb : params.get(name)!).data() as Promise<Float32Array>));
  emb.dispose();
  const renumber = (ids: ArrayLike<number>) => Int32Array.from({ length: ids.length }, (_, t) => index.get(ids[t])!);
  return {
    model: {
      cfg: { ...cfg, vocabSize: index.size, clsId: index.get(cfg.clsId)!, sepId: index.get(cfg.sepId)!, padId: index.get(cfg.padId)! },
      weights: names.map((name, i) => [name, values[i]]),
    },
    renumber,
  };
}
