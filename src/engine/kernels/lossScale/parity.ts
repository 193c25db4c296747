import * as tf from '@tensorflow/tfjs';
import { type LossScaleState, nextLossScale } from '../../precision/lossScale.ts';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { updateLossScaleInPlace } from './webgpu.ts';

/**
 * The WebGPU loss-scale kernel (written in place) against the host rule over a sequence of clean and
 * overflowing steps and at float32's top: the steps where the device's state differs from the host's.
 */
export async function lossScaleKernelParity(): Promise<{ steps: number; mismatches: string[] }> {
  const mismatches: string[] = [];
  const flags = [true, true, true, false, true, false, false, true, true, true, true];
  let steps = 0;
  for (const [from, rule] of [
    [
      { scale: 65536, cleanSteps: 0 },
      { initScale: 65536, growthFactor: 2, backoffFactor: 0.5, growthInterval: 3 },
    ],
    [
      { scale: 2 ** 127, cleanSteps: 0 },
      { initScale: 2 ** 127, growthFactor: 2, backoffFactor: 0.5, growthInterval: 1 },
    ],
  ] as const) {
    const state = tf.variable(tf.tensor1d([from.scale, from.cleanSteps]), false);
    let host: LossScaleState = from;
    for (const f of rule.growthInterval === 1 ? [true] : flags) {
      const finite = tf.scalar(f);
      updateLossScaleInPlace(tf.backend() as WebGPUBackend, state, finite, rule);
      finite.dispose();
      host = nextLossScale(host, f, rule);
      const [scale, cleanSteps] = await state.data();
      steps++;
      if (scale !== host.scale || cleanSteps !== host.cleanSteps)
        mismatches.push(`step ${steps}: device ${scale}, ${cleanSteps}; host ${host.scale}, ${host.cleanSteps}`);
    }
    state.dispose();
  }
  return { steps, mismatches };
}
