/**
 * Test helper (Node only): how the running time of a function grows with its input size, so tests can
 * assert "linear, not quadratic" on size scaling rather than on wall-clock limits (machines differ).
 * Time is the process's CPU time, not wall-clock: on a shared machine, time spent descheduled would
 * otherwise be billed to whichever size happened to run then.
 */

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU milliseconds per call of `run`, repeating it until `minMs` have passed so tiny calls are measurable. */
function timePerCall(run: () => void, minMs: number): number {
  let calls = 0;
  const start = cpuMs();
  let elapsed = 0;
  do {
    run();
    calls++;
    elapsed = cpuMs() - start;
  } while (elapsed < minMs);
  return elapsed / calls;
}

/**
 * The largest `ratio` a linear function passes with at the default factor 8: linear work gives about 8,
 * quadratic work 64. The bound sits at 4× linear, half of quadratic, because a loaded 2-core machine has
 * billed the larger size up to 2.5× more per character (20.2 for linear code on CI: its neighbour on the
 * other core evicts the larger input from the shared cache, which best-of-trials cannot undo).
 */
export const LINEAR_LIMIT = 32;

export interface Growth {
  /** CPU milliseconds per call at size n and at size n · factor. */
  small: number;
  large: number;
  /** large / small: about `factor` for linear work, factor² for quadratic work. */
  ratio: number;
}

/**
 * Times `run(make(n))` against `run(make(n · factor))`; inputs are built outside the timing. The two
 * sizes alternate and each keeps its best of several trials, so both see the same conditions.
 */
export function growth<T>(make: (n: number) => T, run: (input: T) => unknown, n: number, factor = 8): Growth {
  const a = make(n);
  const b = make(n * factor);
  // One untimed call each, so compilation (JIT, regex tier-up) is not billed to the small size.
  run(a);
  run(b);
  let small = Infinity;
  let large = Infinity;
  for (let t = 0; t < 7; t++) {
    small = Math.min(
      small,
      timePerCall(() => run(a), 10),
    );
    large = Math.min(
      large,
      timePerCall(() => run(b), 10),
    );
  }
  return { small, large, ratio: large / small };
}
