import type { ScoringPeer } from './scoring.ts';

/**
 * Part of a training step that another thread computes: the step's chunks from `from` on (see
 * sharedStep.ts). Candidates carry the step's ids in the numbering of the call's model (the step's
 * compact embedding table); `chunks` are all the step's chunks as ranges of step indices, so the part's
 * dropout masks are the ones the whole step draws for those candidates.
 */
export interface PeerPart {
  /** The step's candidates from step index `first` on. */
  candidates: Int32Array[];
  first: number;
  chunks: Array<[number, number]>;
  /** The part's first chunk. */
  from: number;
  /** Training mode with dropout seeded by this (the step's seed); absent: eval mode. */
  dropoutSeed?: number;
}

/**
 * A scoring peer that also computes parts of training steps with the weights of a call (loaded with
 * `load`, dropped with `release`, as for scoring): how training uses a second core.
 */
export interface StepPeer extends ScoringPeer {
  /** The part's energies, chunk after chunk (no gradients). */
  energies(call: number, part: PeerPart): Promise<Float32Array>;
  /** The gradients of Σ upstream_i · E_i over the part's candidates, by parameter name. */
  gradients(call: number, part: PeerPart, upstream: Float32Array): Promise<Array<[string, Float32Array]>>;
}
