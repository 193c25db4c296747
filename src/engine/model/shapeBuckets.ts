/**
 * The shapes WebGPU steps and scoring batches are padded to, so that few shapes exist and each is
 * recorded once and replayed (kernels/webgpu/replay/stepReplay.ts): powers of two and 1.5 times them.
 * Padding wastes at most a third of the work, which a GPU bound by the CPU's recording does not feel.
 * Padded tokens are masked out of attention and padded candidates carry no loss, so the loss and the
 * gradients do not change.
 */
export function bucketUp(n: number): number {
  if (n <= 2) return Math.max(1, Math.ceil(n));
  const p = 2 ** Math.floor(Math.log2(n));
  if (n <= p) return p;
  return n <= 1.5 * p ? 1.5 * p : 2 * p;
}

/** A padded length: at least 32, bucketed, at most maxLen. */
export function paddedLength(longest: number, maxLen: number): number {
  return Math.min(maxLen, bucketUp(Math.max(32, longest)));
}
