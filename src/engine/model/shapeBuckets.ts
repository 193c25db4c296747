/**
 * The lengths (and candidate counts) batches are padded to, one rule for every path: padLength.
 * Padded tokens are masked out of attention and padded candidates carry no loss, so the loss and the
 * gradients do not change.
 */

/** Padded lengths are multiples of this (up to maxLen), so shapes repeat from step to step. */
export const LENGTH_BUCKET = 32;

/**
 * The padded length for a longest candidate: the next multiple of LENGTH_BUCKET, at most maxLen.
 * Compiled kernels, XNNPACK operators and GPU buffers are reused across passes of the same shape;
 * results do not change, since padded keys are masked out.
 */
export function bucketLength(longest: number, maxLen: number): number {
  return Math.min(maxLen, Math.ceil(longest / LENGTH_BUCKET) * LENGTH_BUCKET);
}

/**
 * The shapes WebGPU steps and scoring batches are padded to, so that few shapes exist and each is
 * recorded once and replayed (kernels/webgpu/replay/stepReplay.ts): powers of two and 1.5 times them.
 * Padding wastes at most a third of the work, which a GPU bound by the CPU's recording does not feel.
 */
export function bucketUp(n: number): number {
  if (n <= 2) return Math.max(1, Math.ceil(n));
  const p = 2 ** Math.floor(Math.log2(n));
  if (n <= p) return p;
  return n <= 1.5 * p ? 1.5 * p : 2 * p;
}

/** A replayed shape's length: at least 32, bucketed, at most maxLen. */
export function paddedLength(longest: number, maxLen: number): number {
  return Math.min(maxLen, bucketUp(Math.max(32, longest)));
}

/**
 * The length a batch whose longest candidate has `longest` tokens is padded to: a multiple of 32 where
 * tfjs runs the kernels (bucketLength), a power of two or 1.5 times one where the shape is recorded and
 * replayed (paddedLength). A scoring batch is planned at its length for tfjs (its peers pad to that), and
 * on replay that planned length is padded again: the same as its own except for longest 33–48 (64, not 48).
 */
export function padLength(longest: number, maxLen: number, replayed: boolean): number {
  return replayed ? paddedLength(longest, maxLen) : bucketLength(longest, maxLen);
}
