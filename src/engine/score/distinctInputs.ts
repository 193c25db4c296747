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
  // Found by a hash of the ids and compared id by id: a key string per candidate, held while its chunk
  // scores, was megabytes of garbage per picks chunk.
  const byHash = new Map<number, number[]>();
  const unique: T[] = [];
  const of = new Uint32Array(candidates.length);
  candidates.forEach((c, i) => {
    const h = hashIds(c);
    const bucket = byHash.get(h);
    let k = bucket?.find((u) => sameIds(unique[u], c));
    if (k === undefined) {
      k = unique.length;
      unique.push(c);
      if (bucket) bucket.push(k);
      else byHash.set(h, [k]);
    }
    of[i] = k;
  });
  return { unique, of };
}

/** FNV-1a over the ids (and the length). */
function hashIds(ids: ArrayLike<number>): number {
  let h = 0x811c9dc5 ^ ids.length;
  for (let i = 0; i < ids.length; i++) h = Math.imul(h ^ ids[i], 0x01000193);
  return h;
}

function sameIds(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** scoreCandidates over the distinct inputs, energies back in input order; progress counts distinct inputs. */
export async function scoreDistinct(cfg: ModelConfig, params: ParamTensors, candidates: ReadonlyArray<ArrayLike<number>>, opts: ScoreOptions): Promise<Float32Array> {
  const { unique, of } = distinctInputs(candidates);
  const energies = await scoreCandidates(cfg, params, unique, opts);
  return Float32Array.from(of, (k) => energies[k]);
}
