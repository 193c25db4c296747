/** Picks for the tests of ECE's interval (calibration.test.ts) and its golden file shared with python/ (calibration.golden.test.ts). */
import { createRng } from '../../shared/rng.ts';

export interface Picks {
  probability: number[];
  correct: number[];
}

/** 100 picks in three exactly calibrated bins: 0.25 (1 of 4 right), 0.5 (1 of 2), 0.75 (3 of 4); ECE 0. */
export function calibratedPicks(): Picks {
  const probability: number[] = [];
  const correct: number[] = [];
  for (let r = 0; r < 10; r++) {
    for (const [p, right, of] of [
      [0.25, 1, 4],
      [0.5, 1, 2],
      [0.75, 3, 4],
    ]) {
      for (let i = 0; i < of; i++) {
        probability.push(p);
        correct.push(i < right ? 1 : 0);
      }
    }
  }
  return { probability, correct };
}

/** 150 picks whose probabilities are right on average: correct ~ Bernoulli(p), p uniform on [0.3, 1), some half right (ties). */
export function noisyPicks(seed: number): Picks {
  const rng = createRng(seed);
  const probability = Array.from({ length: 150 }, () => 0.3 + 0.7 * rng.next());
  const correct = probability.map((p, i) => (i % 10 === 0 ? 0.5 : rng.next() < p ? 1 : 0));
  return { probability, correct };
}
