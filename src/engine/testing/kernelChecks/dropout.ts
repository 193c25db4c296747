import * as tf from '@tensorflow/tfjs';
import { DROPOUT, fusedDropout } from '../../kernels/webgpu/dropout.ts';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from './compare.ts';

/**
 * The fused dropout against the composition x · (mask / keep) with the mask it draws for the seed (read
 * from its output on ones): value and dx on [7, 300] at rate 0.1, and `replay`, the largest change
 * between two draws with the same seed. Null where the backend has no fused kernel.
 */
export async function dropoutParity(): Promise<ParityErrors | null> {
  if (!hasKernel(DROPOUT)) return null;
  const rate = 0.1;
  const seed = 12345;
  const x = randomTensor([7, 300], 5, 2);
  const scale = tf.tidy(() => fusedDropout(tf.onesLike(x), seed, rate)); // mask / keep
  try {
    const errors = await compareOps((xi) => fusedDropout(xi, seed, rate), (xi) => tf.mul(xi, scale), { x });
    const [a, b] = [fusedDropout(x, seed, rate), fusedDropout(x, seed, rate)];
    const [da, db] = (await Promise.all([a.data(), b.data()])) as Float32Array[];
    tf.dispose([a, b]);
    return { ...errors, replay: da.reduce((m, v, i) => Math.max(m, Math.abs(v - db[i])), 0) };
  } finally {
    tf.dispose([x, scale]);
  }
}

/**
 * The device-drawn mask as a dropout mask should be, on 2^20 draws at rate 0.1: the share dropped, the
 * share of neighbouring pairs both dropped (rate² when draws are independent), and how often two seeds
 * (consecutive, as a run's calls are not) agree on an element (1 − 2·rate·(1 − rate) = 0.82 when independent).
 */
export async function dropoutStatistics(): Promise<{ rate: number; dropped: number; pairsDropped: number; seedsAgree: number } | null> {
  if (!hasKernel(DROPOUT)) return null;
  const rate = 0.1;
  const ones = tf.ones([256, 4096]);
  const [a, b] = [fusedDropout(ones, 7, rate), fusedDropout(ones, 8, rate)];
  const [da, db] = (await Promise.all([a.data(), b.data()])) as Float32Array[];
  tf.dispose([ones, a, b]);
  let dropped = 0;
  let pairs = 0;
  let agree = 0;
  for (let i = 0; i < da.length; i++) {
    if (da[i] === 0) dropped++;
    if (i > 0 && da[i] === 0 && da[i - 1] === 0) pairs++;
    if (da[i] === 0 === (db[i] === 0)) agree++;
  }
  return { rate, dropped: dropped / da.length, pairsDropped: pairs / (da.length - 1), seedsAgree: agree / da.length };
}
