import type { TensorInfo } from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import type { LossScaleRule } from '../../precision/lossScale.ts';
import type { KernelFamily } from '../register.ts';
import { runInPlace } from '../webgpu/inPlace.ts';
import { LOSS_SCALE_UPDATE } from './op.ts';

/** The AMP rule in one thread (nextLossScale's arithmetic, in float32 where the state lives). */
const CODE = `
  fn main(index : i32) {
    if (index != 0) { return; }
    let scale = S[0];
    if (F[0] == 0) {
      S[0] = scale * uniforms.backoff;
      S[1] = 0.0;
      return;
    }
    let count = S[1] + 1.0;
    if (count < uniforms.interval) {
      S[1] = count;
      return;
    }
    let grown = scale * uniforms.growth;
    // Not past float32's largest: a scale that would overflow stays (as torch's _amp_update_scale_).
    if (grown <= 3.4028234663852886e38) { S[0] = grown; }
    S[1] = 0.0;
  }`;

/** Writes the state in place and returns no tensor (as AdamW's in-place kernels). */
export const LOSS_SCALE_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: LOSS_SCALE_UPDATE,
      kernelFunc: ({ inputs, backend, attrs }) => {
        updateLossScaleInPlace(backend as WebGPUBackend, inputs.state!, inputs.finite!, attrs as unknown as LossScaleRule);
        return [];
      },
    },
  ],
};

/** One update of the state [scale, clean steps] in place, given whether the step's gradients were finite. */
export function updateLossScaleInPlace(backend: WebGPUBackend, state: TensorInfo, finite: TensorInfo, r: LossScaleRule): void {
  const bindings = [
    { name: 'S', t: state, write: true },
    { name: 'F', t: finite, type: 'i32' as const },
  ];
  const uniforms = [r.growthFactor, r.backoffFactor, r.growthInterval].map((x) => ({ type: 'float32' as const, data: [x] }));
  runInPlace(backend, 'eorm_loss_scale', CODE, bindings, 'growth : f32, backoff : f32, interval : f32,', uniforms, 1, 1);
}
