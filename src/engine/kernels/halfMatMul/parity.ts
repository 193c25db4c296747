import * as tf from '@tensorflow/tfjs';
import { createRng } from '../../shared/rng.ts';
import { productErrors } from './bound.ts';
import type { HalfMatMulAttrs } from './op.ts';
import { runHalfMatMul } from './webgpu.ts';

/** One case's largest error, in units of the f16 bound (bound.ts): at most 1 is within it. */
export interface HalfProductCase {
  shape: string;
  worst: number;
}

/**
 * The WebGPU product kernel (wgsl.ts) against tf.matMul on the active WebGPU backend, every transpose,
 * a batch, a bias, sizes off the tiles: in f16 (`half`, where the device has shader-f16) within the
 * bound; in f32 (anywhere, SwiftShader included) far inside it, which checks the kernel's indexing.
 */
export async function halfMatMulParity(half: boolean): Promise<HalfProductCase[]> {
  const rng = createRng(4646);
  const values = (n: number) => Float32Array.from({ length: n }, () => 2 * rng.next() - 1);
  const out: HalfProductCase[] = [];
  for (const [batch, M, K, N, withBias] of [
    [1, 70, 37, 66, false],
    [3, 5, 130, 64, false],
    [1, 129, 24, 7, true],
  ] as Array<[number, number, number, number, boolean]>) {
    for (const transposeA of [false, true]) {
      for (const transposeB of [false, true]) {
        if (withBias && (transposeA || !transposeB)) continue; // the bias goes with the linear's x·Wᵀ only
        const t: HalfMatMulAttrs = { transposeA, transposeB };
        const lead = batch > 1 ? [batch] : [];
        const [a, b, bias] = [values(batch * M * K), values(batch * K * N), values(N)];
        const [ta, tb] = [tf.tensor(a, [...lead, ...(transposeA ? [K, M] : [M, K])]), tf.tensor(b, [...lead, ...(transposeB ? [N, K] : [K, N])])];
        const tBias = tf.tensor1d(bias);
        const want = tf.tidy(() => (withBias ? tf.add(tf.matMul(ta, tb, transposeA, transposeB), tBias) : tf.matMul(ta, tb, transposeA, transposeB)));
        const got = tf.engine().makeTensorFromTensorInfo(runHalfMatMul(tf.backend(), { a: ta, b: tb, ...(withBias ? { bias: tBias } : {}) }, t, half));
        const [g, w] = await Promise.all([got.data(), want.data()]);
        // The bias is exact in both: its error adds nothing to the products' bound.
        out.push({
          shape: `${batch}×${M}×${K}×${N}${transposeA ? ' Aᵀ' : ''}${transposeB ? ' Bᵀ' : ''}${withBias ? ' +bias' : ''}`,
          worst: productErrors(g, w, a, b, [batch, M, K, N], t).worst,
        });
        tf.dispose([ta, tb, tBias, want, got]);
      }
    }
  }
  return out;
}
