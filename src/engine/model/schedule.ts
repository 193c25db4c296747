/**
 * Cosine schedule with linear warmup (transformers.get_cosine_schedule_with_warmup, 0.5 cycles).
 * `step` is the 0-based optimizer step, so with warmup the very first step uses lr 0, as in the reference.
 */
export function cosineWithWarmup(step: number, baseLr: number, warmupSteps: number, totalSteps: number): number {
  if (step < warmupSteps) return (baseLr * step) / Math.max(1, warmupSteps);
  const progress = (step - warmupSteps) / Math.max(1, totalSteps - warmupSteps);
  return baseLr * Math.max(0, 0.5 * (1 + Math.cos(Math.PI * progress)));
}

/** The reference's warmup: int(ratio · total). */
export function warmupSteps(totalSteps: number, warmupRatio: number): number {
  return Math.floor(warmupRatio * totalSteps);
}
