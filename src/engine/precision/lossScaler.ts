import * as tf from '@tensorflow/tfjs';
import { LOSS_SCALE_UPDATE, updateLossScale } from '../kernels/lossScale/op.ts';
import { internals } from '../kernels/webgpu/backendInternals.ts';
import { AMP_RULE, type LossScaleRule, type LossScaleState, initialLossScale } from './lossScale.ts';

let counter = 0;

/**
 * A run's loss scale on the device (the half-precision path's; lossScale.ts has the rule): [scale, clean
 * steps] in one float32 variable that each step reads and updates without a read-back, in place by the
 * backend's kernel where it has one (WebGPU), else by the composition.
 */
export class LossScaler {
  readonly state: tf.Variable;
  private readonly kernel: boolean;

  constructor(
    readonly rule: LossScaleRule = AMP_RULE,
    from: LossScaleState = initialLossScale(rule),
  ) {
    const backend = tf.getBackend();
    this.kernel = tf.getKernel(LOSS_SCALE_UPDATE, backend) !== undefined;
    this.state = tf.tidy(() => tf.variable(tf.tensor1d([from.scale, from.cleanSteps]), false, `lossScale#${counter++}`));
    // On the GPU from the start: tfjs would run small ops on a tensor still in CPU memory on the CPU.
    if (backend === 'webgpu') internals(tf.backend()).uploadToGPU(this.state.dataId);
  }

  /** The scale as a scalar on the device. */
  scale(): tf.Scalar {
    return tf.reshape(tf.slice(this.state, [0], [1]), []) as tf.Scalar;
  }

  /** The state after a step whose loss and gradient norm were (not) finite. */
  update(finite: tf.Scalar): void {
    updateLossScale(this.state, finite, this.rule, this.kernel);
  }

  async read(): Promise<LossScaleState> {
    const [scale, cleanSteps] = await this.state.data();
    return { scale, cleanSteps };
  }

  dispose(): void {
    this.state.dispose();
  }
}
