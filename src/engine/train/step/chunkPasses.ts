import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../../backend/profile.ts';
import type { ModelConfig } from '../../model/config.ts';
import type { Params } from '../../model/params.ts';
import { dropoutForChunk } from '../../model/dropout.ts';
import { type EnergyInputs, energies } from '../../model/transebm.ts';
import { padBatch } from '../../model/batch.ts';
import { padLength } from '../../model/shapeBuckets.ts';

/** How a step's gradients are computed. */
export interface GradientOptions {
  /** Candidates per forward/backward pass; ≥ the batch size means one pass. */
  microBatch?: number;
  /** Training mode with dropout seeded by this (a number, or an int32 tensor on the device); omit for eval mode (no dropout). */
  dropoutSeed?: number | tf.Tensor;
  /** Chunk c's padded inputs, made by the caller (the WebGPU step uploads its own); left out, padded here. */
  chunkInputs?: (c: number) => EnergyInputs;
  /** The pair table on the device (btLoss.ts), made by the caller; left out, the loss makes it. */
  pairTable?: tf.Tensor2D;
}

/**
 * The two passes of a micro-batched step over chunk c of its candidates: energies (on the tape if one
 * records), and the gradients of Σ upstream_i · E_i over the chunk. `chunks` are all the step's chunks
 * as ranges of step indices, and `candidates` the step's candidates from step index `first` on (all of
 * them, or a peer's part), so a chunk's dropout masks are the same whoever computes it.
 */
export interface ChunkPasses {
  energies(c: number): tf.Tensor1D;
  /**
   * `upstream` may be made from the chunk's energies as its pass computes them (a one-pass step learns
   * dL/dE only then): the same pass, the same numbers, as with upstream given.
   */
  gradients(c: number, upstream: tf.Tensor1D | ((energies: tf.Tensor1D) => tf.Tensor1D)): Map<string, tf.Tensor>;
}

export function chunkPasses(
  cfg: ModelConfig,
  params: Params,
  candidates: ReadonlyArray<ArrayLike<number>>,
  first: number,
  chunks: ReadonlyArray<[number, number]>,
  opts: GradientOptions & { profile: BackendProfile },
): ChunkPasses {
  const dropoutFor = (c: number) =>
    opts.dropoutSeed === undefined || cfg.dropout === 0 ? undefined : dropoutForChunk(cfg.dropout, opts.dropoutSeed, chunks[c][0], opts.profile);
  const chunkEnergies = (c: number) => {
    const given = opts.chunkInputs?.(c);
    if (given) return energies(cfg, params, given, { dropout: dropoutFor(c), profile: opts.profile });
    const [s, e] = chunks[c];
    const chunk = candidates.slice(s - first, e - first);
    const inputs = padBatch(chunk, cfg.padId, padLength(longestOf(chunk), cfg.maxLen, false));
    const out = energies(cfg, params, inputs, { dropout: dropoutFor(c), profile: opts.profile });
    inputs.ids.dispose();
    inputs.lengths.dispose();
    return out;
  };
  return {
    energies: chunkEnergies,
    gradients(c, upstream) {
      const { value, grads } = gradientsByName(params, () => {
        const e = chunkEnergies(c);
        return tf.sum(tf.mul(typeof upstream === 'function' ? upstream(e) : upstream, e)) as tf.Scalar;
      });
      value.dispose();
      return grads;
    },
  };
}

/** tf.variableGrads of `f` over every parameter, the gradients keyed by parameter name. */
export function gradientsByName(params: Params, f: () => tf.Scalar): { value: tf.Scalar; grads: Map<string, tf.Tensor> } {
  const names = new Map([...params].map(([name, v]) => [v.name, name]));
  const { value, grads } = tf.variableGrads(f, [...params.values()]);
  return { value, grads: new Map(Object.entries(grads).map(([vname, g]) => [names.get(vname)!, g])) };
}

/** Adds `more` into `acc` by name (disposing what it replaces); `acc` null takes `more` as it is. */
export function accumulate(acc: Map<string, tf.Tensor> | null, more: Map<string, tf.Tensor>): Map<string, tf.Tensor> {
  if (acc === null) return more;
  for (const [name, g] of more) {
    const prev = acc.get(name)!;
    acc.set(name, tf.add(prev, g));
    prev.dispose();
    g.dispose();
  }
  return acc;
}

function longestOf(candidates: ReadonlyArray<ArrayLike<number>>): number {
  let n = 0;
  for (const c of candidates) n = Math.max(n, c.length);
  return n;
}
