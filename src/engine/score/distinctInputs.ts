/**
 * Identical inputs scored once (issue 31, point 6). Ties are exact equality (metrics/rank.ts), and inputs
 * cut at maxLen are often identical: scored in different batches, padded to other lengths, they can come
 * back one float step apart and hide a tie. Each distinct token sequence is scored once and its energy
 * reused, so identical inputs get identical energies by construction; python/'s score_candidates does the same.
 */
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { type ScoreOptions, scoreCandidates } from './scoring.ts';

/** Each distinct token sequence once, in order of first appearance, and per candidate its index there. */
export function distinctInputs<T extends ArrayLike<number>>(candidates: ReadonlyArray<T>): { unique: T[]; of: Uint32Array } {
  const index = new Map<string, number>();
  const unique: T[] = [];
  const of = new Uint32Array(candidates.length);
  candidates.forEach((c, i) => {
    const key = Array.prototype.join.call(c, ',');
    let k = index.get(key);
    if (k === undefined) {
      k = unique.length;
      index.set(key, k);
      unique.push(c);
    }
    of[i] = k;
  });
  return { unique, of };
}

/** scoreCandidates over the distinct inputs, energies back in input order; progress counts distinct inputs. */
export async function scoreDistinct(cfg: ModelConfig, params: ParamTensors, candidates: ReadonlyArray<ArrayLike<number>>, opts: ScoreOptions = {}): Promise<Float32Array> {
  const { unique, of } = distinctInputs(candidates);
  const energies = await scoreCandidates(cfg, params, unique, opts);
  return Float32Array.from(of, (k) => energies[k]);
}
