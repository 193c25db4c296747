import * as tf from '@tensorflow/tfjs';
import { activeProfile } from '../../engine/backend/profile.ts';
import { modelOps } from '../../engine/model/ops.ts';
import type { BackendName, ProbeResult } from './backendInfo.ts';

/** Each probe stops after this long (warm-up and compilation included) or after MAX_ROUNDS timed rounds. */
const PROBE_BUDGET_MS = 400;
/** A backend whose first round (compilation included) takes longer is not waited for: its speed is bounded. */
const FIRST_ROUND_LIMIT_MS = 700;
const MAX_ROUNDS = 30;
/** One round: the shapes of a tiny-preset layer over 256 tokens, forward and the backward products. */
const TOKENS = 256;
const WIDTH = 64;
const FLOPS_PER_ROUND = 3 * 2 * TOKENS * WIDTH * 4 * WIDTH + 2 * 2 * 16 * 64 * 64 * 16;

/**
 * Times a kernel mix like a training step's (plain and transposed products, batched attention-shaped
 * products, an elementwise chain and a reduction read back) on the backend that is active now.
 * The first round compiles kernels and is not timed; rounds then run until the budget is spent.
 * A backend whose first round does not finish in FIRST_ROUND_LIMIT_MS is only bounded.
 */
export async function probeActiveBackend(): Promise<Omit<ProbeResult, 'backend' | 'available'>> {
  const sleep = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms));
  const t0 = performance.now();
  const { matMul } = modelOps(activeProfile());
  const [x, w, q, k] = tf.tidy(() => [
    tf.randomUniform([TOKENS, WIDTH], -1, 1, 'float32', 1),
    tf.randomUniform([4 * WIDTH, WIDTH], -0.1, 0.1, 'float32', 2),
    tf.randomUniform([16, 64, 16], -1, 1, 'float32', 3),
    tf.randomUniform([16, 64, 16], -1, 1, 'float32', 4),
  ]);
  const round = () => {
    const s = tf.tidy(() => {
      const h = tf.tanh(matMul(x, w, false, true));
      const dx = matMul(h, w);
      const dw = matMul(h, x, true, false);
      const att = tf.softmax(matMul(q, k, false, true));
      const ctx = matMul(att, k);
      return tf.addN([tf.sum(dx), tf.sum(dw), tf.sum(ctx)]);
    });
    // The kernels are queued by now: the inputs may go even if this read has not come back yet.
    return s.data().then(() => s.dispose());
  };
  // One product first: a software GPU is too slow already there, and then it is left with one kernel
  // to compile instead of the whole mix (seconds of a busy GPU process that the chosen backend would lack).
  const first = () => {
    const s = tf.tidy(() => tf.sum(matMul(x, w, false, true)));
    return s.data().then(() => s.dispose());
  };
  try {
    if (
      (await Promise.race([
        first()
          .then(round)
          .then(() => 'done' as const),
        sleep(FIRST_ROUND_LIMIT_MS),
      ])) === 'late'
    ) {
      // A software GPU compiling its kernels: slower than one round per limit, whatever comes after.
      const ms = performance.now() - t0;
      return { roundsPerSec: 1000 / ms, gflops: FLOPS_PER_ROUND / ms / 1e6, ms, bounded: true };
    }
    const start = performance.now();
    let rounds = 0;
    while (rounds < MAX_ROUNDS && (rounds < 2 || performance.now() - t0 < PROBE_BUDGET_MS)) {
      await round();
      rounds++;
    }
    const seconds = (performance.now() - start) / 1000;
    return { roundsPerSec: rounds / seconds, gflops: (rounds * FLOPS_PER_ROUND) / seconds / 1e9, ms: performance.now() - t0 };
  } finally {
    tf.dispose([x, w, q, k]);
  }
}

/** The fastest available backend by the probe. */
export function fastest(probes: ProbeResult[]): BackendName | null {
  let best: ProbeResult | null = null;
  for (const p of probes) if (p.available && p.roundsPerSec !== null && (!best || p.roundsPerSec > best.roundsPerSec!)) best = p;
  return best?.backend ?? null;
}
