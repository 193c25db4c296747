/**
 * What the engine worker and its peer workers (peerPool.ts, peer.worker.ts) send each other. Types only.
 */
import type { PeerModel } from '../../engine/score/scoring.ts';
import type { OnePassStep, PeerPart } from '../../engine/train/step/stepPeer.ts';

/** `call` names the scoring call, whose weights the peer keeps until that call's release (see ScoringPeer). */
export type PeerCall =
  | { type: 'load'; call: number; model: PeerModel }
  | { type: 'score'; call: number; batch: Int32Array[]; length: number }
  | { type: 'energies'; call: number; part: PeerPart }
  | { type: 'gradients'; call: number; part: PeerPart; upstream: Float32Array }
  | { type: 'onePass'; call: number; part: PeerPart; step: OnePassStep };
/** Requests are answered by `id`; a release is not answered. */
export type PeerRequest = (PeerCall & { id: number }) | { type: 'release'; call: number };
export type PeerReply = { id: number; energies?: Float32Array; gradients?: Array<[string, Float32Array]>; error?: string };
