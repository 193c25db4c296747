import { createRng } from '../shared/rng.ts';
import type { TrainingView } from '../data/types.ts';

/**
 * A learnable toy dataset: every candidate is CLS + random ids, and the correct ones contain the
 * marker id somewhere. Groups of `groupSize` with 1..groupSize−1 correct candidates.
 */
export function syntheticView(opts: { groups: number; groupSize: number; vocab: number; marker: number; seed: number; cls: number }): {
  view: TrainingView;
  answers: Array<string | null>;
} {
  const rng = createRng(opts.seed);
  const cands: number[][] = [];
  const labels: number[] = [];
  const groupStart = [0];
  for (let g = 0; g < opts.groups; g++) {
    const nCorrect = 1 + rng.int(opts.groupSize - 1);
    for (let c = 0; c < opts.groupSize; c++) {
      const correct = c < nCorrect ? 1 : 0;
      const len = 4 + rng.int(8);
      const ids = [opts.cls];
      for (let t = 0; t < len; t++) {
        let id = 1 + rng.int(opts.vocab - 2);
        if (id === opts.marker) id++;
        ids.push(id);
      }
      if (correct) ids[1 + rng.int(len)] = opts.marker;
      cands.push(ids);
      labels.push(correct);
    }
    groupStart.push(cands.length);
  }
  const offsets = new Uint32Array(cands.length + 1);
  cands.forEach((c, i) => (offsets[i + 1] = offsets[i] + c.length));
  const tokens = new Uint16Array(offsets[cands.length]);
  cands.forEach((c, i) => tokens.set(c, offsets[i]));
  return {
    view: { tokens: { maxLen: 64, tokens, offsets, truncated: 0 }, labels: Uint8Array.from(labels), groupStart: Uint32Array.from(groupStart) },
    answers: labels.map((l, i) => (l ? 'right' : `wrong${i % 3}`)),
  };
}
