import { rankKey } from './rank.ts';

/**
 * Majority vote over final answers. Ties go to the answer seen first in candidate order
 * (as Python's Counter.most_common does); this is the rule behind the sample's published
 * 47.3% majority-vote figure. `null` answers (nothing extractable) never win a vote.
 * Returns the index of the first candidate carrying the winning answer, or -1 if no candidate has an answer.
 */
export function majorityVoteIndex(answers: ReadonlyArray<string | null>): number {
  const counts = new Map<string, number>();
  const firstIndex = new Map<string, number>();
  answers.forEach((a, i) => {
    if (a === null) return;
    counts.set(a, (counts.get(a) ?? 0) + 1);
    if (!firstIndex.has(a)) firstIndex.set(a, i);
  });
  let best = -1;
  let bestCount = 0;
  for (const [a, c] of counts) {
    // Map iteration follows first insertion, so a strict '>' keeps the earliest answer on ties.
    if (c > bestCount) {
      bestCount = c;
      best = firstIndex.get(a)!;
    }
  }
  return best;
}

/**
 * Energy-weighted vote: every candidate adds softmax(−E)_i to its answer; the heaviest answer wins
 * (ties: first seen). Non-finite energies rank as +Infinity (see rank.ts): weight 0, or equal
 * weights when every energy is non-finite (a majority vote). Returns the index of the first candidate
 * with that answer, or -1 if none has one.
 */
export function weightedVoteIndex(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>): number {
  let minE = Infinity;
  for (let i = 0; i < energies.length; i++) minE = Math.min(minE, rankKey(energies[i]));
  const weight = new Map<string, number>();
  const firstIndex = new Map<string, number>();
  answers.forEach((a, i) => {
    if (a === null) return;
    // Shifting by the minimum keeps exp() in range; the normaliser cancels in the comparison.
    const w = minE === Infinity ? 1 : Math.exp(-(rankKey(energies[i]) - minE));
    weight.set(a, (weight.get(a) ?? 0) + w);
    if (!firstIndex.has(a)) firstIndex.set(a, i);
  });
  let best = -1;
  let bestW = -Infinity;
  for (const [a, w] of weight) {
    if (w > bestW) {
      bestW = w;
      best = firstIndex.get(a)!;
    }
  }
  return best;
}
