import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from '../webgpu/program.ts';

/**
 * Queries, keys and values into attention heads on WebGPU: from the in-projection's output qkv
 * [B, T, 3d] straight to q, k, v as [B·H, len, dh] (one dispatch each; the composition transposes
 * all of it, then slices each part out: four, five with the CLS-only queries), and back in one
 * dispatch for the gradient (the composition: a concat and a transpose, and a pad for CLS queries).
 */
export const QKV_HEADS = 'EormQkvHeads';
const MERGE_HEADS = 'EormMergeHeads';

const UNIFORMS = 'T : i32, H : i32, dh : i32, part : i32, len : i32, n : i32,';

/** out[bh, t, e] = qkv[b, t, part·d + h·dh + e], b = bh / H, h = bh mod H, t < len. */
const SPLIT = `
  fn main(index : i32) {
    if (index < uniforms.n) {
      let e = index % uniforms.dh;
      let t = (index / uniforms.dh) % uniforms.len;
      let bh = index / (uniforms.dh * uniforms.len);
      let d = uniforms.H * uniforms.dh;
      let b = bh / uniforms.H;
      let h = bh % uniforms.H;
      setOutputAtIndex(index, QKV[(b * uniforms.T + t) * 3 * d + uniforms.part * d + h * uniforms.dh + e]);
    }
  }`;

/** dqkv[b, t, c]: from dq (zero past its `len` positions), dk or dv by the part c falls in. */
const MERGE = `
  fn main(index : i32) {
    if (index < uniforms.n) {
      let d = uniforms.H * uniforms.dh;
      let c = index % (3 * d);
      let t = (index / (3 * d)) % uniforms.T;
      let b = index / (3 * d * uniforms.T);
      let part = c / d;
      let bh = b * uniforms.H + (c % d) / uniforms.dh;
      let e = c % uniforms.dh;
      var value = 0.0;
      if (part == 0) {
        if (t < uniforms.len) { value = DQ[(bh * uniforms.len + t) * uniforms.dh + e]; }
      } else if (part == 1) {
        value = DK[(bh * uniforms.T + t) * uniforms.dh + e];
      } else {
        value = DV[(bh * uniforms.T + t) * uniforms.dh + e];
      }
      setOutputAtIndex(index, value);
    }
  }`;

/** [q, k, v] as [B·H, len, dh] from qkv [B, T, 3d]; with `clsOnly` q holds position 0 only. */
export function fusedQkvHeads(qkv: tf.Tensor3D, heads: number, clsOnly: boolean): [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D] {
  return tf.engine().runKernel(QKV_HEADS, { qkv }, { heads, queries: clsOnly ? 1 : qkv.shape[1] }) as unknown as [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D];
}

type Attrs = { heads: number; queries: number };
const ints = (values: number[]) => values.map((v) => ({ type: 'int32' as const, data: [v] }));

/** The split, the merge, and the split's gradient (the merge). */
export const HEADS_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: QKV_HEADS,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const qkv = inputs.qkv!;
        const { heads, queries } = attrs as unknown as Attrs;
        const [B, T, d3] = qkv.shape;
        const dh = d3 / 3 / heads;
        return [0, 1, 2].map((part) => {
          const len = part === 0 ? queries : T;
          const n = B * heads * len * dh;
          const program = new WorkgroupProgram('split_heads', ['QKV'], [B * heads, len, dh], Math.ceil(n / WORKGROUP), SPLIT, UNIFORMS);
          return runProgram(backend, program, [qkv], ints([T, heads, dh, part, len, n]));
        });
      },
    },
    {
      kernelName: MERGE_HEADS,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { dq, dk, dv } = inputs as Record<string, tf.TensorInfo>;
        const { heads, queries } = attrs as unknown as Attrs;
        const [BH, T, dh] = dk.shape;
        const B = BH / heads;
        const n = B * T * 3 * heads * dh;
        const program = new WorkgroupProgram('merge_heads', ['DQ', 'DK', 'DV'], [B, T, 3 * heads * dh], Math.ceil(n / WORKGROUP), MERGE, UNIFORMS);
        return runProgram(backend, program, [dq, dk, dv], ints([T, heads, dh, 0, queries, n]));
      },
    },
  ],
  gradients: [
    {
      kernelName: QKV_HEADS,
      outputsToSave: [true, true, true],
      gradFunc: (dys, outputs, attrs) => ({
        // A part outside the back-propagated graph arrives as null: it contributes zeros.
        qkv: () => {
          const [dq, dk, dv] = (dys as Array<tf.Tensor | null>).map((dy, i) => dy ?? tf.zerosLike(outputs[i]));
          return tf.engine().runKernel(MERGE_HEADS, { dq, dk, dv }, attrs) as tf.Tensor;
        },
      }),
    },
  ],
};
