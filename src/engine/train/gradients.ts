import * as tf from '@tensorflow/tfjs';
import { type BackendProfile, activeProfile } from '../backend/profile.ts';
import type { ModelConfig } from '../model/config.ts';
import { dropoutForChunk } from '../model/dropout.ts';
import { btLoss, btLossGradient, pairGroups } from '../model/loss.ts';
import type { Params } from '../model/params.ts';
import { energies } from '../model/transebm.ts';
import { bucketLength, chunkRanges, padBatch } from './batch.ts';

/** The candidates of one optimizer step: one group by default, several groups allowed. */
export interface StepBatch {
  /** Token ids per candidate, CLS first, at most maxLen. */
  candidates: ReadonlyArray<ArrayLike<number>>;
  /** 1 = correct, 0 = incorrect. */
  labels: ArrayLike<number>;
  /** Group index per candidate; the loss is averaged per group. */
  groupOf: ArrayLike<number>;
}

export interface GradientOptions {
  /** Candidates per forward/backward pass; ≥ the batch size means one pass. */
  microBatch?: number;
  /** Training mode with dropout seeded by this; omit for eval mode (no dropout). */
  dropoutSeed?: number;
  /** What runs where (left out: the active backend's profile). */
  profile?: BackendProfile;
}

export interface LossAndGradients {
  loss: tf.Scalar;
  grads: Map<string, tf.Tensor>;
}

/**
 * Loss and gradients of the Bradley-Terry loss for one step. With a micro-batch smaller than the batch,
 * energies are first computed without gradients, dL/dE follows in closed form, and then
 * Σ stopgrad(dL/dE_i)·E_i is backpropagated chunk by chunk with gradients accumulated, so memory is
 * bounded by the micro-batch, not by the group. Chunk c uses the same dropout seed in both passes,
 * so both passes see the same masks and the result is the one-pass gradient.
 */
export function lossAndGradients(cfg: ModelConfig, params: Params, batch: StepBatch, opts: GradientOptions = {}): LossAndGradients {
  const n = batch.candidates.length;
  const chunks = chunkRanges(n, opts.microBatch ?? n);
  const pairs = pairGroups(batch.labels, batch.groupOf);
  const profile = opts.profile ?? activeProfile();
  const names = new Map<string, string>();
  for (const [name, v] of params) names.set(v.name, name);
  const varList = [...params.values()];
  const dropoutFor = (c: number) =>
    opts.dropoutSeed === undefined || cfg.dropout === 0 ? undefined : dropoutForChunk(cfg.dropout, opts.dropoutSeed, c, chunks[c][0], profile);
  const chunkEnergies = (c: number) => {
    const [s, e] = chunks[c];
    const chunk = batch.candidates.slice(s, e);
    const inputs = padBatch(chunk, cfg.padId, bucketLength(longestOf(chunk), cfg.maxLen));
    const out = energies(cfg, params, inputs, { dropout: dropoutFor(c) });
    inputs.ids.dispose();
    inputs.lengths.dispose();
    return out;
  };
  const byName = (g: tf.NamedTensorMap) => {
    const out = new Map<string, tf.Tensor>();
    for (const [vname, t] of Object.entries(g)) out.set(names.get(vname)!, t);
    return out;
  };

  if (chunks.length === 1) {
    const { value, grads } = tf.variableGrads(() => btLoss(chunkEnergies(0), pairs, profile), varList);
    return { loss: value, grads: byName(grads) };
  }
  const e = tf.concat(chunks.map((_, c) => tf.tidy(() => chunkEnergies(c)))) as tf.Tensor1D;
  const loss = btLoss(e, pairs, profile);
  const dE = btLossGradient(e, pairs, profile);
  e.dispose();
  let acc: Map<string, tf.Tensor> | null = null;
  chunks.forEach(([s, end], c) => {
    const upstream = tf.slice(dE, [s], [end - s]);
    const { value, grads } = tf.variableGrads(() => tf.sum(tf.mul(upstream, chunkEnergies(c))) as tf.Scalar, varList);
    value.dispose();
    upstream.dispose();
    const named = byName(grads);
    if (acc === null) {
      acc = named;
      return;
    }
    for (const [name, g] of named) {
      const prev = acc.get(name)!;
      acc.set(name, tf.add(prev, g));
      prev.dispose();
      g.dispose();
    }
  });
  dE.dispose();
  return { loss, grads: acc! };
}

function longestOf(candidates: ReadonlyArray<ArrayLike<number>>): number {
  let n = 0;
  for (const c of candidates) n = Math.max(n, c.length);
  return n;
}
