import type * as tf from '@tensorflow/tfjs';

/**
 * The step's candidates as Bradley-Terry pair groups: which candidates of each group are correct and
 * which are not. Plain data shared by the loss (model/loss.ts) and its WebGPU kernel (webgpu.ts),
 * which therefore needs nothing from the model.
 */
export interface PairGroup {
  /** Candidate indices (into the energies) of the group's correct and incorrect answers. */
  pos: Int32Array;
  neg: Int32Array;
}

export interface PairGroups {
  /** Candidates in the step. */
  n: number;
  /** Only the groups having both labels, in order of first appearance. */
  groups: PairGroup[];
  /** The groups as WebGPU's loss kernel reads them (btLoss.ts's pairTable), already on the device: a training step's input. */
  table?: tf.Tensor2D;
}

export function pairGroups(labels: ArrayLike<number>, groupOf: ArrayLike<number>): PairGroups {
  const n = labels.length;
  if (groupOf.length !== n) throw new Error(`labels (${n}) and groupOf (${groupOf.length}) differ in length`);
  const byGroup = new Map<number, { pos: number[]; neg: number[] }>();
  for (let i = 0; i < n; i++) {
    let g = byGroup.get(groupOf[i]);
    if (!g) byGroup.set(groupOf[i], (g = { pos: [], neg: [] }));
    (labels[i] ? g.pos : g.neg).push(i);
  }
  const groups = [...byGroup.values()]
    .filter((g) => g.pos.length > 0 && g.neg.length > 0)
    .map((g) => ({ pos: Int32Array.from(g.pos), neg: Int32Array.from(g.neg) }));
  return { n, groups };
}
