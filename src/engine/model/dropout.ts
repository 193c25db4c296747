import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile } from '../backend/profile.ts';
import { fusedDropout } from '../kernels/webgpu/dropout.ts';

/**
 * Seeded dropout. Every call draws the mask from (seed, call counter), so replaying the same
 * forward pass with the same seed reproduces every mask: the micro-batched step relies on that
 * to compute energies without gradients first and then again with gradients.
 */
export class SeededDropout {
  private calls = 0;
  private readonly fused: boolean;
  constructor(
    readonly rate: number,
    private readonly seed: number,
    profile: BackendProfile = activeProfile(),
  ) {
    this.fused = profile.fused.dropout;
  }

  apply(x: tf.Tensor): tf.Tensor {
    if (this.rate <= 0) return x;
    const callSeed = mixSeed(this.seed, this.calls++);
    // The fused kernel (WebGPU) draws the mask on the device from the same seed (kernels/webgpu/dropout.ts).
    return this.fused ? fusedDropout(x, callSeed, this.rate) : tf.dropout(x, this.rate, undefined, callSeed);
  }
}

/** A well-spread 32-bit seed from two integers (a splitmix-style finaliser). */
export function mixSeed(a: number, b: number): number {
  let h = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(b + 0x632be5ab, 0xc2b2ae35)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}
