/**
 * The peers of the engine worker: peer workers (peer.worker.ts; the UI and the docs call them scoring
 * workers) on the cores the engine's own threads leave idle, which score batches and compute halves of
 * training steps. Each is wrapped as a StepPeer (src/engine/train/step/stepPeer.ts) that posts its requests
 * and waits for their replies.
 */
import type { StepPeer } from '../../engine/train/step/stepPeer.ts';
import type { BackendInfo } from '../backend/backendInfo.ts';
import { countPeerBatch, countPeerStep } from '../backend/counters.ts';
import type { PeerCall, PeerReply, PeerRequest } from '../protocols/peer.ts';

/** Longer than any batch takes (a paper-size batch at 2048 tokens on one slow core): then the batch is taken back. */
const REPLY_LIMIT_MS = 120_000;
/** Peers beyond this cost more memory (a tfjs-wasm engine and a weight copy each) than they save. */
const MAX_PEERS = 3;

/** A peer worker as a StepPeer: one request at a time, each answered or failed (error, timeout, dead worker). */
function workerPeer(worker: Worker): StepPeer {
  let nextId = 0;
  // Calls released: a step part answered after its call's release was not used (the engine computed it).
  const released = new Set<number>();
  const stepAnswered = (call: number) => {
    if (!released.has(call)) countPeerStep();
  };
  let dead: string | null = null;
  const pending = new Map<number, { resolve: (r: PeerReply) => void; reject: (e: Error) => void }>();
  const fail = (message: string) => {
    dead = message;
    for (const p of pending.values()) p.reject(new Error(message));
    pending.clear();
  };
  worker.addEventListener('message', (e: MessageEvent<PeerReply>) => {
    const p = pending.get(e.data.id);
    pending.delete(e.data.id);
    if (e.data.error !== undefined) p?.reject(new Error(e.data.error));
    else p?.resolve(e.data);
  });
  worker.addEventListener('error', (e: ErrorEvent) => fail(`the scoring worker failed: ${e.message || 'its script could not be loaded'}`));
  const request = (req: PeerCall, transfer: Transferable[] = []): Promise<PeerReply> => {
    if (dead) return Promise.reject(new Error(dead));
    const id = nextId++;
    return new Promise<PeerReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the scoring worker did not answer in time'));
      }, REPLY_LIMIT_MS);
      const settle =
        <T>(f: (v: T) => void) =>
        (v: T) => (clearTimeout(timer), f(v));
      pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      worker.postMessage({ ...req, id }, { transfer });
    });
  };
  return {
    // A dead worker never publishes: the engine must not block waiting for it.
    get otherThread() {
      return dead === null;
    },
    load: async (call, model) => void (await request({ type: 'load', call, model })),
    score: async (call, batch, length) => {
      const { energies } = await request({ type: 'score', call, batch, length });
      countPeerBatch();
      return energies!;
    },
    energies: async (call, part) => (await request({ type: 'energies', call, part })).energies!,
    gradients: async (call, part, upstream) => {
      const { gradients } = await request({ type: 'gradients', call, part, upstream }, [upstream.buffer]);
      stepAnswered(call);
      return gradients!;
    },
    onePass: async (call, part, step) => {
      const { gradients } = await request({ type: 'onePass', call, part, step });
      stepAnswered(call);
      return gradients!;
    },
    release: (call) => {
      released.add(call);
      // Only the calls in flight matter: a few steps back at most.
      if (released.size > 64) released.delete(released.values().next().value!);
      if (!dead) worker.postMessage({ type: 'release', call } satisfies PeerRequest);
    },
  };
}

/**
 * Scoring peers for the engine worker: on the WASM backend, one per core its own threads leave idle
 * (at most MAX_PEERS), started once the backend has warmed up (engineCore.ts) and kept. None on
 * other backends or where workers cannot start.
 */
export function lazyPeers(backend: () => BackendInfo | null, count: () => number | undefined = () => undefined): () => StepPeer[] {
  let peers: StepPeer[] | null = null;
  return () => {
    const b = backend();
    if (b?.backend !== 'wasm' || typeof Worker === 'undefined') return [];
    if (peers) return peers;
    const n = count() ?? Math.min(MAX_PEERS, Math.max(0, (navigator.hardwareConcurrency || 1) - (b.threads ?? 1)));
    peers = [];
    for (let i = 0; i < n; i++) {
      try {
        peers.push(workerPeer(new Worker(new URL('./peer.worker.ts', import.meta.url), { type: 'module' })));
      } catch {
        break;
      }
    }
    return peers;
  };
}
