import type { StepBatch } from './gradients.ts';

/** A step's batch re-indexed into the embedding rows it uses (ascending), the pad id included. */
export interface CompactBatch {
  rows: Int32Array;
  batch: StepBatch;
  padId: number;
}

/** For the lazy embedding: the step reads and trains only these rows, as a small [rows × d] table. */
export function compactBatch(batch: StepBatch, padId: number, vocab: number): CompactBatch {
  const index = new Int32Array(vocab).fill(-1);
  index[padId] = 0;
  for (const c of batch.candidates) for (let t = 0; t < c.length; t++) index[c[t]] = 0;
  const used: number[] = [];
  for (let r = 0; r < vocab; r++) if (index[r] === 0) used.push(r);
  const rows = Int32Array.from(used);
  rows.forEach((r, k) => (index[r] = k));
  const candidates = batch.candidates.map((c) => Int32Array.from(c, (id) => index[id]));
  return { rows, batch: { ...batch, candidates }, padId: index[padId] };
}
