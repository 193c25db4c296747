/**
 * Made-up held-out questions for the cross-fitting tests: up to 12 candidates over 4 answers, answer "0"
 * right; the energy tells right from wrong with strength `signal` (0: not at all), some labels flipped
 * (answers carrying both labels), some answers missing, some candidates duplicated (ties).
 */
import { createRng } from '../shared/rng.ts';
import type { ScoredGroup } from '../metrics/summary.ts';

export function heldOutGroups(seed: number, count: number, signal = 1): ScoredGroup[] {
  const r = createRng(seed);
  return Array.from({ length: count }, () => {
    const n = 1 + r.int(12);
    const energies: number[] = [];
    const labels: number[] = [];
    const answers: Array<string | null> = [];
    for (let i = 0; i < n; i++) {
      if (i > 0 && r.next() < 0.1) {
        energies.push(energies[i - 1]);
        labels.push(labels[i - 1]);
        answers.push(answers[i - 1]);
        continue;
      }
      const a = r.int(4);
      const right = (a === 0) !== r.next() < 0.1;
      energies.push((right ? -signal : 0) + (r.next() - 0.5) * 3);
      labels.push(right ? 1 : 0);
      answers.push(r.next() < 0.1 ? null : String(a));
    }
    return { energies, labels, answers };
  });
}
