import type * as tf from '@tensorflow/tfjs';
import { type WebGPUBackend, webgpu_util } from '@tensorflow/tfjs-backend-webgpu';
import { ADAMW_KERNEL, type AdamWStep, adamwScalars } from './adamw.ts';
import type { KernelFamily } from '../register.ts';

/**
 * AdamW on WebGPU in three element-wise dispatches per parameter (new m, new v, then new p from
 * them) instead of the ~12 of the composition; the clip coefficient (input S) and the apply flag
 * (input A, a bool stored as i32: where 0, each dispatch writes its input back unchanged) stay on the device.
 * Hyper-parameters travel as uniforms, so one pipeline per program serves every parameter and step.
 */
class AdamWProgram {
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  workgroupSize: [number, number, number] = [128, 1, 1];
  size = true;
  uniforms = 'beta1 : f32, beta2 : f32, decay : f32, stepSize : f32, invSqrtBias2 : f32, eps : f32,';

  constructor(
    readonly variableNames: string[],
    private readonly body: string,
    shape: number[],
    name: string,
  ) {
    this.outputShape = shape;
    this.shaderKey = `eorm_adamw_${name}`;
    this.dispatchLayout = webgpu_util.flatDispatchLayout(shape);
    this.dispatch = webgpu_util.computeDispatch(this.dispatchLayout, shape, this.workgroupSize);
  }

  getUserCode(): string {
    return `
      fn main(index : i32) {
        if (index < uniforms.size) {
          ${this.body}
        }
      }`;
  }
}

const M_BODY = 'let m = M[index]; setOutputAtIndex(index, select(m, uniforms.beta1 * m + (1.0 - uniforms.beta1) * (G[index] * S[0]), A[0] != 0));';
const V_BODY = 'let v = V[index]; let g = G[index] * S[0]; setOutputAtIndex(index, select(v, uniforms.beta2 * v + (1.0 - uniforms.beta2) * g * g, A[0] != 0));';
const P_BODY =
  'let p = P[index]; setOutputAtIndex(index, select(p, p * uniforms.decay - uniforms.stepSize * (M[index] / (sqrt(V[index]) * uniforms.invSqrtBias2 + uniforms.eps)), A[0] != 0));';

/** The fused AdamW kernel (three dispatches per parameter). */
export const ADAMW_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: ADAMW_KERNEL,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const b = backend as unknown as WebGPUBackend;
        const { p, m, v, g, scale, apply } = inputs as Record<string, tf.TensorInfo>;
        const s = attrs as unknown as AdamWStep;
        const { decay, stepSize, invSqrtBias2 } = adamwScalars(s);
        const uniforms = [s.beta1, s.beta2, decay, stepSize, invSqrtBias2, s.eps].map((x) => ({
          type: 'float32',
          data: [x],
        }));
        const run = (names: string[], body: string, ins: tf.TensorInfo[], key: string) =>
          b.runWebGPUProgram(new AdamWProgram(names, body, p.shape, key) as never, ins, 'float32', uniforms);
        const mNew = run(['M', 'G', 'S', 'A'], M_BODY, [m, g, scale, apply], 'm');
        const vNew = run(['V', 'G', 'S', 'A'], V_BODY, [v, g, scale, apply], 'v');
        const pNew = run(['P', 'M', 'V', 'A'], P_BODY, [p, mNew, vNew, apply], 'p');
        return [pNew, mNew, vNew];
      },
    },
  ],
};
