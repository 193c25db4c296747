import * as tf from '@tensorflow/tfjs';
import { fusedQkvHeads } from './webgpu.ts';

/**
 * Attention heads from one in-projection output qkv [B, T, 3d] (queries, keys, values side by side):
 * [q, k, v] as [B·H, len, dh], len = T, or 1 for q with `clsOnly` (the queries of position 0). One kernel
 * (webgpu.ts, WebGPU only, where its name and gradient live), and the tfjs composition: one transpose to
 * [3, B·H, T, dh], unstacked, the reference the kernel is tested against (parity.ts) and the path elsewhere.
 */
export function composedQkvHeads(qkv: tf.Tensor3D, heads: number, clsOnly: boolean): [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D] {
  return tf.tidy(() => {
    const [B, T, d3] = qkv.shape;
    const dh = d3 / 3 / heads;
    const [q, k, v] = tf.unstack(tf.reshape(tf.transpose(tf.reshape(qkv, [B, T, 3, heads, dh]), [2, 0, 3, 1, 4]), [3, B * heads, T, dh])) as tf.Tensor3D[];
    return [clsOnly ? tf.slice(q, [0, 0, 0], [B * heads, 1, dh]) : q, k, v];
  });
}

/** The heads by the kernel where the backend has it (its profile's fused.qkvHeads), else by the composition. */
export function qkvHeads(qkv: tf.Tensor3D, heads: number, clsOnly: boolean, kernel: boolean): [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D] {
  return kernel ? fusedQkvHeads(qkv, heads, clsOnly) : composedQkvHeads(qkv, heads, clsOnly);
}
