import * as tf from '@tensorflow/tfjs';
import { dropoutScales, gridRows } from './keys.ts';
import { DROPOUT, fusedDropout } from './webgpu.ts';
import { mixSeed } from '../../shared/rng.ts';
import { type ParityErrors, hasKernel, compareOps, randomTensor } from '../parity.ts';

/**
 * The fused dropout against the composition x · dropoutScales, the host's mask for the same keys
 * (kernels/dropout/keys.ts), on attention-shaped [3, 2, 6, 40] rows (3 candidates from the step's 5th,
 * 2 heads of 6 queries, keyed as the padded forward keys them) at rate 0.1: value and dx; `hostMask`, how
 * many elements the two masks keep or drop differently (0: the CPU and WASM backends draw this mask);
 * `replay`, the largest change between two draws with the same seed; `devicePath`, between a seed mixed on
 * the device (a base tensor and a path of constants, as training steps draw theirs) and the same seed mixed
 * by mixSeed on the host. Null where the backend has no fused kernel.
 */
export async function dropoutParity(): Promise<ParityErrors | null> {
  if (!hasKernel(DROPOUT)) return null;
  const rate = 0.1;
  const seed = 12345;
  const grid = { first: 5, perCandidate: 12, inner: 6, stride: 64 };
  const x = randomTensor([3, 2, 6, 40], 5, 2);
  const at = (base: number) => ({ base, path: [] });
  const scales = dropoutScales(seed, rate, gridRows(grid, 36), 40);
  const host = tf.tensor(scales, x.shape);
  const base = tf.tensor1d([seed], 'int32');
  try {
    const errors = await compareOps(
      (xi) => fusedDropout(xi, at(seed), rate, grid),
      (xi) => tf.mul(xi, host),
      { x },
    );
    const ones = tf.onesLike(x);
    const [a, b, m] = [fusedDropout(x, at(seed), rate, grid), fusedDropout(x, at(seed), rate, grid), fusedDropout(ones, at(seed), rate, grid)];
    const [c, d] = [fusedDropout(x, { base, path: [3, 4, 1] }, rate, grid), fusedDropout(x, at(mixSeed(mixSeed(mixSeed(seed, 3), 4), 1)), rate, grid)];
    const [da, db, dm, dc, dd] = (await Promise.all([a.data(), b.data(), m.data(), c.data(), d.data()])) as Float32Array[];
    tf.dispose([ones, a, b, m, c, d]);
    const largest = (u: Float32Array, v: Float32Array) => u.reduce((most, y, i) => Math.max(most, Math.abs(y - v[i])), 0);
    const hostMask = dm.reduce((n, v, i) => n + ((v === 0) !== (scales[i] === 0) ? 1 : 0), 0);
    return { ...errors, hostMask, replay: largest(da, db), devicePath: largest(dc, dd) };
  } finally {
    tf.dispose([x, host, base]);
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
  const grid = { first: 0, perCandidate: 256, inner: 256, stride: 0 };
  const [a, b] = [fusedDropout(ones, { base: 7, path: [] }, rate, grid), fusedDropout(ones, { base: 8, path: [] }, rate, grid)];
  const [da, db] = (await Promise.all([a.data(), b.data()])) as Float32Array[];
  tf.dispose([ones, a, b]);
  let dropped = 0;
  let pairs = 0;
  let agree = 0;
  for (let i = 0; i < da.length; i++) {
    if (da[i] === 0) dropped++;
    if (i > 0 && da[i] === 0 && da[i - 1] === 0) pairs++;
    if ((da[i] === 0) === (db[i] === 0)) agree++;
  }
  return { rate, dropped: dropped / da.length, pairsDropped: pairs / (da.length - 1), seedsAgree: agree / da.length };
}
