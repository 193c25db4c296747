import * as tf from '@tensorflow/tfjs';
import { composedBothFinite, composedClipCoefficient, composedGlobalNorm } from './globalNorm.ts';
import { type ParityErrors, hasKernel, randomTensor, relativeError } from '../parity.ts';
import { SQUARED_NORM_LINK, fusedBothFinite, fusedClipCoefficient, fusedGlobalNorm } from './webgpu.ts';

/**
 * The fused global norm against the composition over 16 tensors (a chain of three links) of which one
 * is large enough for the partial sums, and the clip coefficient on either side of max_norm; relative
 * errors; `finite`, the pairs of finite, NaN and infinite scalars on which the step flag differs from the
 * composition's (0 expected). Null where the backend has no fused kernel.
 */
export async function globalNormParity(): Promise<ParityErrors | null> {
  if (!hasKernel(SQUARED_NORM_LINK)) return null;
  const grads = [randomTensor([1100, 1000], 40, 0.01), ...Array.from({ length: 15 }, (_, i) => randomTensor([1 + i * 7, 3 + (i % 4)], 41 + i))];
  const [fused, composed] = [fusedGlobalNorm(grads), composedGlobalNorm(grads)];
  const norm = (await composed.data())[0];
  const clip = [0.5, 2].map((k) => [fusedClipCoefficient(composed, k * norm), composedClipCoefficient(composed, k * norm)]);
  const values = [1.5, Number.NaN, Infinity, -Infinity];
  let finite = 0;
  for (const a of values) {
    for (const b of values) {
      const [x, y] = [tf.scalar(a), tf.scalar(b)];
      const flags = [fusedBothFinite(x, y), composedBothFinite(x, y)];
      const [f, c] = await Promise.all(flags.map((t) => t.data()));
      if (flags[0].dtype !== 'bool' || f[0] !== c[0]) finite++;
      tf.dispose([x, y, ...flags]);
    }
  }
  try {
    return {
      norm: await relativeError(fused, composed),
      clipBelow: await relativeError(clip[0][0], clip[0][1]),
      clipAbove: await relativeError(clip[1][0], clip[1][1]),
      finite,
    };
  } finally {
    tf.dispose([...grads, fused, composed, ...clip.flat()]);
  }
}
