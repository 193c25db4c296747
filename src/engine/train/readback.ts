/**
 * The steps' loss and gradient norm, read back. On a GPU the per-step scalars stay on the device and are
 * read in one batch every `readbackEvery` steps (a read ends a GPU pass and maps a buffer); the curves get
 * every step, at most that many steps late. On the CPU-memory backends a read is a copy: every step, so a
 * run of non-finite steps pauses at once.
 */
import * as tf from '@tensorflow/tfjs';
import { record } from './curves.ts';
import type { Run, StepAt } from './run.ts';
import type { StepScalars } from './step/step.ts';

/** A step's scalars, left on the device until read back. */
export function queueStep(run: Run, s: StepScalars, at: StepAt): void {
  run.readback.queued.push({ s, at });
}

/** A full batch of queued steps starts its read: one in flight at a time; the next steps run while it comes back. */
export async function readIfFull(run: Run): Promise<void> {
  const readback = run.readback;
  if (readback.queued.length < run.profile.readbackEvery) return;
  if (readback.pending) await readback.pending;
  readback.pending = readQueued(run);
  // Awaited later; this only keeps an early rejection from being reported as unhandled meanwhile.
  readback.pending.catch(() => undefined);
}

/** Every step read back and recorded: before pauses, validations, checkpoints and the epoch's end. */
export async function drain(run: Run): Promise<void> {
  if (run.readback.pending) await run.readback.pending;
  run.readback.pending = null;
  await readQueued(run);
}

async function readQueued(run: Run): Promise<void> {
  const batch = run.readback.queued;
  run.readback.queued = [];
  if (batch.length === 0) return;
  const readEvery = run.profile.readbackEvery;
  const packed = tf.tidy(() => {
    const parts = batch.flatMap(({ s }) => [tf.reshape(s.loss, [1]), tf.reshape(s.gradNorm, [1])]);
    // Always as many parts: a shorter read (a drain before a pause, a validation, a checkpoint) would
    // otherwise compile a concat of its own on a GPU, late in the run.
    if (parts.length < 2 * readEvery) {
      const zero = tf.zeros([1]);
      while (parts.length < 2 * readEvery) parts.push(zero);
    }
    return tf.concat(parts);
  });
  tf.dispose(batch.flatMap(({ s }) => [s.loss, s.gradNorm, s.clipCoef]));
  try {
    const values = await packed.data();
    batch.forEach(({ at }, i) => record(run, values[2 * i], values[2 * i + 1], at));
  } finally {
    packed.dispose();
  }
}
