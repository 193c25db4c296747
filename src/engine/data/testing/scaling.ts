/**
 * Test helper: how the running time of a function grows with its input size, so tests can assert
 * "linear, not quadratic" on size scaling rather than on wall-clock limits (machines differ).
 */

/** Milliseconds per call of `run`, best of `trials`; each trial repeats `run` until `minMs` have passed so tiny calls are measurable. */
function bestTime(run: () => void, trials: number, minMs: number): number {
  let best = Infinity;
  for (let t = 0; t < trials; t++) {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      run();
      calls++;
      elapsed = performance.now() - start;
    } while (elapsed < minMs);
    best = Math.min(best, elapsed / calls);
  }
  return best;
}

export interface Growth {
  /** Milliseconds per call at size n and at size n · factor. */
  small: number;
  large: number;
  /** large / small: about `factor` for linear work, factor² for quadratic work. */
  ratio: number;
}

/** Times `run(make(n))` against `run(make(n · factor))`; inputs are built outside the timing. */
export function growth<T>(make: (n: number) => T, run: (input: T) => unknown, n: number, factor = 8): Growth {
  const a = make(n);
  const b = make(n * factor);
  const small = bestTime(() => run(a), 5, 20);
  const large = bestTime(() => run(b), 3, 20);
  return { small, large, ratio: large / small };
}
