import * as tf from '@tensorflow/tfjs';
import type { EnergyInputs } from './transebm.ts';

/**
 * Pads candidates (CLS first, already truncated) to `length` (default: the longest of them):
 * int32 ids [B, T] and true lengths.
 */
export function padBatch(candidates: ReadonlyArray<ArrayLike<number>>, padId: number, length?: number): EnergyInputs {
  const B = candidates.length;
  if (B === 0) throw new Error('padBatch: no candidates');
  let T = 0;
  for (const c of candidates) T = Math.max(T, c.length);
  if (length !== undefined) {
    if (length < T) throw new Error(`padBatch: length ${length} is shorter than the longest candidate (${T})`);
    T = length;
  }
  const ids = new Int32Array(B * T).fill(padId);
  const lengths = new Int32Array(B);
  candidates.forEach((c, b) => {
    if (c.length === 0) throw new Error(`padBatch: candidate ${b} is empty (it needs at least the CLS id)`);
    lengths[b] = c.length;
    for (let t = 0; t < c.length; t++) ids[b * T + t] = c[t];
  });
  return { ids: tf.tensor2d(ids, [B, T], 'int32'), lengths: tf.tensor1d(lengths, 'int32'), hostLengths: lengths };
}

/** Splits 0..n-1 into consecutive chunks of at most `size`. */
export function chunkRanges(n: number, size: number): Array<[number, number]> {
  const step = Math.max(1, Math.floor(Math.min(size, n)));
  const out: Array<[number, number]> = [];
  for (let s = 0; s < n; s += step) out.push([s, Math.min(n, s + step)]);
  return out;
}
