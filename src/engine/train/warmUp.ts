import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { scoreBatch } from '../score/scoring.ts';

/** About what one eval pass of the tiny preset grows the WASM heap to. */
export const HEAP_RESERVE_BYTES = 160 * 1024 ** 2;

/**
 * Run once the backend is up, before any real work: grows the heap in one step and runs a forward pass
 * of a toy model, so the first real pass pays neither: on WASM a first pass spends most of its time
 * growing the heap in many small steps, the rest in the first call of each kernel. The freed memory
 * stays in the heap for reuse. `profile`: the backend's, which the pass runs with. `resident`: the reserve's
 * pages are written now (an engine warming up before any work: its first pass then finds them ready), else
 * only allocated (a scoring peer, started when scoring starts: writing them then would only move that cost,
 * and a picks run's passes use a fraction of them).
 */
export async function warmUp(profile: BackendProfile, reserveBytes = HEAP_RESERVE_BYTES, resident = true): Promise<void> {
  const wasm = (tf.backend() as unknown as { wasm?: { _malloc(bytes: number): number; _free(at: number): void } }).wasm;
  if (resident || !wasm) tf.fill([Math.floor(reserveBytes / 4)], 0).dispose();
  else {
    // Allocated and freed, not written: the heap grows once, and its pages cost memory only once a pass uses them.
    const at = wasm._malloc(reserveBytes);
    if (at) wasm._free(at);
  }
  const cfg = makeConfig({ vocabSize: 8, dModel: 8, nHeads: 2, nLayers: 2, maxLen: 32, dropout: 0, clsId: 7, sepId: 7, padId: 7 });
  const params = initParams(cfg, 0);
  try {
    await scoreBatch(
      cfg,
      params,
      [
        [7, 1, 2, 3, 7, 4],
        [7, 5],
      ],
      32,
      profile,
    );
  } finally {
    disposeParams(params);
  }
}
