import type { ScoringPeer } from '../../score/scoring.ts';

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

/** What a one-pass part needs besides its candidates: the whole step's loss and the shared energies. */
export interface OnePassStep {
  /** The step's labels and groups, all candidates (the loss pairs them across both parts). */
  labels: Int32Array;
  groupOf: Int32Array;
  /** An EnergyExchange's buffer and this step's number in it. */
  exchange: SharedArrayBuffer;
  step: number;
}

/**
 * A scoring peer that also computes parts of training steps with the weights of a call (loaded with
 * `load`, dropped with `release`, as for scoring): how training uses a second core.
 */
export interface StepPeer extends ScoringPeer {
  /** It runs (and lives) on another thread, so this one may block waiting for its energies (one-pass steps); else two passes. */
  readonly otherThread?: boolean;
  /** The part's energies, chunk after chunk (no gradients). */
  energies(call: number, part: PeerPart): Promise<Float32Array>;
  /** The gradients of Σ upstream_i · E_i over the part's candidates, by parameter name. */
  gradients(call: number, part: PeerPart, upstream: Float32Array): Promise<Array<[string, Float32Array]>>;
  /**
   * In one pass: the gradients of the step's loss through the part's energies, the other candidates'
   * energies read from the exchange (the engine's) while the part's are published there.
   */
  onePass(call: number, part: PeerPart, step: OnePassStep): Promise<Array<[string, Float32Array]>>;
}
