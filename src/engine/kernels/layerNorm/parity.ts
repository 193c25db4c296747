import * as tf from '@tensorflow/tfjs';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from '../parity.ts';
import { LAYER_NORM, composedLayerNorm, fusedLayerNorm } from './layerNorm.ts';

/**
 * The fused LayerNorm against the composition: value, dx, dweight and dbias on [3, 5, 72] (rows wider
 * than a workgroup, a last dweight block of 8 columns) and on [4, 64] (the CLS rows' shape). Null where
 * the backend has no fused kernel.
 */
export async function layerNormParity(): Promise<ParityErrors | null> {
  if (!hasKernel(LAYER_NORM)) return null;
  const worst: ParityErrors = {};
  for (const [shape, seed] of [
    [[3, 5, 72], 1],
    [[4, 64], 2],
  ] as const) {
    const d = shape[shape.length - 1];
    const inputs = { x: randomTensor([...shape], seed, 3), weight: randomTensor([d], seed + 10), bias: randomTensor([d], seed + 20) };
    const errors = await compareOps(
      (x, w, b) => fusedLayerNorm(x, w, b, 1e-5),
      (x, w, b) => composedLayerNorm(x, w, b, 1e-5),
      inputs,
    );
    tf.dispose(Object.values(inputs));
    for (const [k, v] of Object.entries(errors)) worst[k] = Math.max(worst[k] ?? 0, v);
  }
  return worst;
}
