/**
 * Identical inputs scored once (issue 31, point 6), and, for a model without positional encoding, inputs
 * whose ids are the same in another order (issue 48, point 9). Ties are exact equality (metrics/rank.ts), and inputs
 * cut at maxLen are often identical: scored in different batches, padded to other lengths, they can come
 * back one float step apart and hide a tie. Each distinct token sequence is scored once and its energy
 * reused, so identical inputs get identical energies by construction; python/'s score_candidates does the same.
 */
import type { ModelConfig } from '../model/config.ts';
import type { ParamTensors } from '../model/transebm.ts';
import { type ScoreOptions, scoreCandidates } from './scoring.ts';

/**
 * Each distinct input once, in order of first appearance, and per candidate its index there. `asMultisets`
 * (a model without positional encoding): inputs with the same first id and the same other ids in another
 * order are one input. Such a model's energy is a function of the multiset (attention sums over positions),
 * equal in exact arithmetic but not in floats, where the order of a sum moves the last bits: scored once,
 * they tie exactly, and a tie goes to the first candidate on both sides (issue 48, point 9).
 */
export function distinctInputs<T extends ArrayLike<number>>(candidates: ReadonlyArray<T>, asMultisets = false): { unique: T[]; of: Uint32Array } {
  // Found by a hash of the ids and compared id by id: a key string per candidate, held while its chunk
  // scores, was megabytes of garbage per picks chunk.
  const byHash = new Map<number, number[]>();
  const unique: T[] = [];
  const of = new Uint32Array(candidates.length);
  const [hash, same] = asMultisets ? [hashMultiset, sameMultiset] : [hashIds, sameIds];
  candidates.forEach((c, i) => {
    const h = hash(c);
    const bucket = byHash.get(h);
    let k = bucket?.find((u) => same(unique[u], c));
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

/** A hash that the order of the ids after the first does not change: a sum of each id's mix (and the first id, the length). */
function hashMultiset(ids: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 1; i < ids.length; i++) {
    const m = Math.imul(ids[i] ^ (ids[i] >>> 16), 0x45d9f3b);
    sum = (sum + (m ^ (m >>> 16))) | 0;
  }
  return Math.imul(sum ^ ids.length, 0x01000193) ^ (ids.length > 0 ? ids[0] : -1);
}

/** Same first id, same other ids in any order (sorted copies: only inputs whose hashes agree are compared). */
function sameMultiset(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length || (a.length > 0 && a[0] !== b[0])) return false;
  const rest = (x: ArrayLike<number>) => Float64Array.from(Array.prototype.slice.call(x, 1) as number[]).sort();
  return sameIds(rest(a), rest(b));
}

/** scoreCandidates over the distinct inputs, energies back in input order; progress counts distinct inputs. */
export async function scoreDistinct(
  cfg: ModelConfig,
  params: ParamTensors,
  candidates: ReadonlyArray<ArrayLike<number>>,
  opts: ScoreOptions,
): Promise<Float32Array> {
  // Without positional encoding an input's energy depends on its ids, not their order.
  const { unique, of } = distinctInputs(candidates, cfg.positional === 'none');
  const energies = await scoreCandidates(cfg, params, unique, opts);
  return Float32Array.from(of, (k) => energies[k]);
}
