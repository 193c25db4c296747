import type { TrainingView } from '../data/types.ts';

/** Candidate i's ids, cut to maxLen: right truncation keeps a prefix, so this equals tokenizing at maxLen. */
export function candidateIds(view: TrainingView, i: number, maxLen: number): Uint16Array {
  const { tokens, offsets } = view.tokens;
  const start = offsets[i];
  return tokens.subarray(start, Math.min(offsets[i + 1], start + maxLen));
}
