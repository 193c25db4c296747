/** Largest |a_i − b_i| and where it occurs; throws if the lengths differ. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): { max: number; at: number } {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let max = 0;
  let at = -1;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= max)) {
      max = d;
      at = i;
    }
  }
  return { max, at };
}

/** Asserts |a − b| ≤ atol elementwise (NaN fails); the message names what was compared and the worst entry. */
export function expectAllClose(what: string, actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number): number {
  const { max, at } = maxAbsDiff(actual, expected);
  if (!(max <= atol)) throw new Error(`${what}: max |Δ| = ${max} at [${at}] (got ${actual[at]}, want ${expected[at]}) > atol ${atol}`);
  return max;
}
