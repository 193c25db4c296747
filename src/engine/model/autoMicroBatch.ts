import { DEFAULT_PASS_BUDGET_BYTES } from '../backend/profile.ts';
import type { ModelConfig } from './config.ts';

/**
 * Float32 activations one candidate of length T keeps for the backward pass: per layer LN, q/k/v,
 * context, projections and residuals (~12·d per token), the FFN (3·ffn per token), and attention
 * scores, probabilities and dropout mask (3·H·T²). The same rough model as the memory estimate.
 */
export function activationBytesPerCandidate(cfg: ModelConfig, T: number): number {
  return 4 * (cfg.nLayers * (T * (12 * cfg.dModel + 3 * cfg.ffnDim) + 3 * cfg.nHeads * T * T) + T * cfg.dModel);
}

/**
 * Candidates per forward/backward pass so a step's activations fit the budget: undefined when the
 * whole step fits in one pass (the faster path), else the largest micro-batch that fits (at least 1).
 */
export function autoMicroBatch(cfg: ModelConfig, candidates: number, longest: number, budgetBytes = DEFAULT_PASS_BUDGET_BYTES): number | undefined {
  const per = activationBytesPerCandidate(cfg, Math.min(longest, cfg.maxLen));
  if (candidates * per <= budgetBytes) return undefined;
  return Math.max(1, Math.floor(budgetBytes / per));
}
