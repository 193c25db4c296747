/**
 * A scoring peer (see src/engine/train/scoringPeer.ts): a second tfjs-wasm engine on another core that
 * scores the batches the engine worker hands it, with the weights it was last given. One thread: it
 * exists to use a core the engine's own products leave idle.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { peerScorer } from '../engine/train/peerScorer.ts';
import { warmUp } from '../engine/train/warmUp.ts';
import type { PeerReply, PeerRequest } from './scoringPeers.ts';
import { configureWasm } from './wasmSetup.ts';

const scorer = peerScorer();
const started = (async () => {
  configureWasm(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('the WASM backend did not start in the scoring worker');
  await warmUp();
})();

const reply = (r: PeerReply, transfer: Transferable[] = []) => self.postMessage(r, { transfer });

// One request at a time, in order: a batch sent right after the weights is scored with them.
let queue: Promise<void> = Promise.resolve();

self.addEventListener('message', (event: MessageEvent<PeerRequest>) => {
  const req = event.data;
  queue = queue
    .then(() => started)
    .then(async () => {
      if (req.type === 'load') {
        await scorer.load(req.model);
        reply({ id: req.id });
      } else {
        const energies = await scorer.score(req.batch, req.length);
        reply({ id: req.id, energies }, [energies.buffer]);
      }
    })
    .catch((e: unknown) => reply({ id: req.id, error: e instanceof Error ? e.message : String(e) }));
});
