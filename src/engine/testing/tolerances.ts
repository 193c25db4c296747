import type { CheckKind } from './fixtureParity.ts';

/** The fixture README's recommended float32 tolerances (CPU backend). */
export const FLOAT32_TOLERANCE: Record<CheckKind, number> = {
  energy: 1e-6,
  loss: 1e-6,
  gradNormRel: 1e-5,
  grad: 1e-6,
  inter: 1e-5,
  param: 5e-5,
  // The exactly-zero gradients are zeroed (lossFreeGradients.ts): those weights only decay, as in the float64 reference.
  zeroGradParam: 5e-5,
  decayRel: 1e-6,
  clipCoef: 1e-5,
  microBatch: 1e-6,
};

/**
 * On WebGPU the forward and backward quantities may differ from the CPU's float32 by more (other erf/exp
 * code, other reduction orders): up to 1e-4. The optimizer-step checks keep their CPU tolerances.
 */
export const WEBGPU_TOLERANCE: Record<CheckKind, number> = {
  ...FLOAT32_TOLERANCE,
  energy: 1e-4,
  loss: 1e-4,
  gradNormRel: 1e-4,
  grad: 1e-4,
  inter: 1e-4,
  microBatch: 1e-4,
};
