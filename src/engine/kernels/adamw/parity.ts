import * as tf from '@tensorflow/tfjs';
import { createRng } from '../../shared/rng.ts';
import { composedAdamW, fusedAdamW } from './adamw.ts';

/**
 * The fused AdamW kernel of the active backend against the tf composition: three steps with clipping
 * from random state, then a skipped one (apply false, NaN gradient); the largest |Δ| of p, m and v,
 * relative to each tensor's largest entry (m passes through 0 where β1·m and (1−β1)·g cancel), and
 * `skipMoved`, the largest change the skipped step made to the fused kernel's p, m or v (NaN counts as
 * a change). Node tests and the browser parity page both run it.
 */
export async function adamwKernelParity(n = 1000): Promise<{ p: number; m: number; v: number; moved: number; skipMoved: number }> {
  const rng = createRng(3);
  const rand = (scale = 1) => Float32Array.from({ length: n }, () => (rng.next() * 2 - 1) * scale);
  const init = { p: rand(), m: rand(1e-2), v: rand(1e-4).map(Math.abs) };
  const states = [init, init].map((s) => ({ p: tf.tensor(s.p), m: tf.tensor(s.m), v: tf.tensor(s.v) }));
  let beforeSkip: Float32Array[] = [];
  for (let t = 1; t <= 4; t++) {
    const skip = t === 4;
    if (skip) beforeSkip = (await Promise.all([states[0].p.data(), states[0].m.data(), states[0].v.data()])) as Float32Array[];
    const g = tf.tensor(skip ? new Float32Array(n).fill(Number.NaN) : rand(0.1));
    const scale = tf.scalar(0.7);
    const apply = tf.scalar(!skip);
    const s = { lr: 1e-3 * t, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, t };
    [fusedAdamW, composedAdamW].forEach((f, i) => {
      const [p, m, v] = f(states[i].p, states[i].m, states[i].v, g, scale, apply, s);
      tf.dispose([states[i].p, states[i].m, states[i].v]);
      states[i] = { p, m, v };
    });
    tf.dispose([g, scale, apply]);
  }
  const afterSkip = (await Promise.all([states[0].p.data(), states[0].m.data(), states[0].v.data()])) as Float32Array[];
  let skipMoved = 0;
  afterSkip.forEach((a, k) => a.forEach((x, i) => (skipMoved = Math.max(skipMoved, Number.isNaN(x) ? Infinity : Math.abs(x - beforeSkip[k][i])))));
  const out = { p: 0, m: 0, v: 0, moved: 0, skipMoved };
  for (const key of ['p', 'm', 'v'] as const) {
    const [a, b] = await Promise.all([states[0][key].data(), states[1][key].data()]);
    let worst = 0;
    let scale = 0;
    for (let i = 0; i < n; i++) {
      worst = Math.max(worst, Math.abs(a[i] - b[i]));
      scale = Math.max(scale, Math.abs(b[i]));
    }
    out[key] = worst / scale;
    if (key === 'p') for (let i = 0; i < n; i++) out.moved = Math.max(out.moved, Math.abs(a[i] - init.p[i]));
  }
  tf.dispose(states.flatMap((s) => [s.p, s.m, s.v]));
  return out;
}
