import type { TrainingView } from '../../data/types.ts';
import { candidateIds } from '../../score/candidateIds.ts';
import type { StepBatch } from './gradients.ts';

/** The candidates of some groups as one optimizer step, with the number of tokens it carries. */
export function stepBatch(view: TrainingView, groups: ArrayLike<number>, maxLen: number): StepBatch & { tokenCount: number; longest: number } {
  const candidates: Uint16Array[] = [];
  const labels: number[] = [];
  const groupOf: number[] = [];
  let tokenCount = 0;
  let longest = 0;
  for (let k = 0; k < groups.length; k++) {
    const g = groups[k];
    for (let i = view.groupStart[g]; i < view.groupStart[g + 1]; i++) {
      const ids = candidateIds(view, i, maxLen);
      candidates.push(ids);
      labels.push(view.labels[i]);
      groupOf.push(k);
      tokenCount += ids.length;
      longest = Math.max(longest, ids.length);
    }
  }
  return { candidates, labels, groupOf, tokenCount, longest };
}
