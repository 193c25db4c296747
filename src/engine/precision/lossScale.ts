/**
 * Dynamic loss scaling by the AMP rule (torch.cuda.amp.GradScaler's, with its defaults): the loss is
 * multiplied by `scale` before the backward pass, so small gradients survive half precision, and the
 * gradients are divided by it after. A step whose gradients overflowed (a non-finite gradient norm) is
 * skipped and the scale halved; after `growthInterval` clean steps in a row it doubles. The host rule
 * here is the reference for the device's update (kernels/lossScale/), which runs every step without a
 * read-back.
 */
export interface LossScaleRule {
  initScale: number;
  growthFactor: number;
  backoffFactor: number;
  growthInterval: number;
}

/** torch.cuda.amp.GradScaler's defaults. */
export const AMP_RULE: LossScaleRule = { initScale: 2 ** 16, growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000 };

export interface LossScaleState {
  scale: number;
  /** Clean (finite) steps since the scale last changed. */
  cleanSteps: number;
}

export function initialLossScale(rule: LossScaleRule = AMP_RULE): LossScaleState {
  return { scale: rule.initScale, cleanSteps: 0 };
}

/**
 * The state after a step: halved and the count reset on overflow, doubled after growthInterval clean
 * steps (unless doubling would overflow float32, where the scale lives: then it stays, as torch's).
 */
export function nextLossScale(s: LossScaleState, finite: boolean, rule: LossScaleRule = AMP_RULE): LossScaleState {
  if (!finite) return { scale: Math.fround(s.scale * rule.backoffFactor), cleanSteps: 0 };
  const clean = s.cleanSteps + 1;
  if (clean < rule.growthInterval) return { scale: s.scale, cleanSteps: clean };
  const grown = Math.fround(s.scale * rule.growthFactor);
  return { scale: Number.isFinite(grown) ? grown : s.scale, cleanSteps: 0 };
}
