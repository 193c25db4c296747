/**
 * A dataset narrowed to some of its candidates (a split's `keep`, when sources are held out), with every
 * group kept in place: group g of the copy is group g of the original with only its kept candidates, so
 * a split's group indices mean the same groups in both. Training, validation and Inspect then read the
 * copy as they read any dataset: nothing downstream needs to know about held-out sources.
 */
import type { Dataset, TrainingView } from './types.ts';

export interface CandidateData {
  dataset: Dataset;
  view: TrainingView;
  /** Canonical final answer per candidate, in view order. */
  answers: Array<string | null>;
}

export function keepCandidates<T extends CandidateData>(data: T, keep: Uint8Array): T {
  const { view, dataset } = data;
  const n = view.labels.length;
  if (keep.length !== n) throw new Error(`keep has ${keep.length} entries for ${n} candidates`);
  const { tokens: t } = view;
  const kept: number[] = [];
  let nTokens = 0;
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    kept.push(i);
    nTokens += t.offsets[i + 1] - t.offsets[i];
  }
  const tokens = new Uint16Array(nTokens);
  const offsets = new Uint32Array(kept.length + 1);
  let atMaxLen = 0;
  kept.forEach((i, k) => {
    const piece = t.tokens.subarray(t.offsets[i], t.offsets[i + 1]);
    tokens.set(piece, offsets[k]);
    offsets[k + 1] = offsets[k] + piece.length;
    if (piece.length >= t.maxLen) atMaxLen++;
  });
  const groupStart = new Uint32Array(view.groupStart.length);
  let c = 0;
  const groups = dataset.groups.map((g, gi) => {
    const candidates = g.candidates.filter((_, j) => keep[view.groupStart[gi] + j]);
    c += candidates.length;
    groupStart[gi + 1] = c;
    return { ...g, candidates };
  });
  const labels = Uint8Array.from(kept, (i) => view.labels[i]);
  const sources = view.sources && { names: view.sources.names, index: Int32Array.from(kept, (i) => view.sources!.index[i]) };
  return {
    ...data,
    dataset: { ...dataset, groups, candidateCount: kept.length },
    // A kept candidate at maxLen was most likely cut: the original count of cut candidates cannot be split by candidate.
    view: { tokens: { maxLen: t.maxLen, tokens, offsets, truncated: atMaxLen }, labels, groupStart, ...(sources ? { sources } : {}) },
    answers: kept.map((i) => data.answers[i]),
  };
}
