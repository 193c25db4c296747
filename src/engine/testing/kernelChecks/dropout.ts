import * as tf from '@tensorflow/tfjs';
import { DROPOUT, fusedDropout } from '../../kernels/webgpu/dropout.ts';
import { mixSeed } from '../../model/dropout.ts';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from './compare.ts';

/**
 * The fused dropout against the composition x · (mask / keep) with the mask it draws for the seed (read
 * from its output on ones): value and dx on [7, 300] at rate 0.1; `replay`, the largest change between
 * two draws with the same seed; `devicePath`, between a seed mixed on the device (a base tensor and a
 * path of constants, as training steps draw theirs) and the same seed mixed by mixSeed on the host.
 * Null where the backend has no fused kernel.
 */
export async function dropoutParity(): Promise<ParityErrors | null> {
  if (!hasKernel(DROPOUT)) return null;
  const rate = 0.1;
  const seed = 12345;
  const x = randomTensor([7, 300], 5, 2);
  const at = (base: number) => ({ base, path: [] });
  const scale = tf.tidy(() => fusedDropout(tf.onesLike(x), at(seed), rate)); // mask / keep
  const base = tf.tensor1d([seed], 'int32');
  try {
    const errors = await compareOps((xi) => fusedDropout(xi, at(seed), rate), (xi) => tf.mul(xi, scale), { x });
    const [a, b] = [fusedDropout(x, at(seed), rate), fusedDropout(x, at(seed), rate)];
    const [c, d] = [fusedDropout(x, { base, path: [3, 4, 1] }, rate), fusedDropout(x, at(mixSeed(mixSeed(mixSeed(seed, 3), 4), 1)), rate)];
    const [da, db, dc, dd] = (await Promise.all([a.data(), b.data(), c.data(), d.data()])) as Float32Array[];
    tf.dispose([a, b, c, d]);
    const largest = (u: Float32Array, v: Float32Array) => u.reduce((m, y, i) => Math.max(m, Math.abs(y - v[i])), 0);
    return { ...errors, replay: largest(da, db), devicePath: largest(dc, dd) };
  } finally {
    tf.dispose([x, scale, base]);
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
  const [a, b] = [fusedDropout(ones, { base: 7, path: [] }, rate), fusedDropout(ones, { base: 8, path: [] }, rate)];
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
