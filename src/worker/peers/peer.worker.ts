/**
 * A peer (StepPeer in src/engine/train/step/stepPeer.ts): a second tfjs-wasm engine on another core
 * that scores the batches and computes the parts of training steps the engine worker hands it, each with
 * the weights of the call it names.
 * One thread: it exists to use a core the engine's own products leave idle.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { activeProfile } from '../../engine/backend/profile.ts';
import { peerWork } from '../../engine/train/step/peerWork.ts';
import { warmUp } from '../../engine/train/warmUp.ts';
import type { PeerReply, PeerRequest } from '../protocols/peer.ts';
import { configureWasm } from '../backend/wasmSetup.ts';

const started = (async () => {
  configureWasm(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('the WASM backend did not start in the scoring worker');
  // The thread's one backend: its profile, taken once, serves the warm-up and every request.
  const profile = activeProfile();
  // Started when scoring starts: its reserve is allocated, not written (warmUp's `resident`).
  await warmUp(profile, undefined, false);
  return profile;
})();
// Handles the requests one at a time, in order, once the backend runs; keeps each call's weights until its release.
const scorer = peerWork(started);

const reply = (r: PeerReply, transfer: Transferable[] = []) => self.postMessage(r, { transfer });

self.addEventListener('message', (event: MessageEvent<PeerRequest>) => {
  const req = event.data;
  if (req.type === 'release') return void scorer.release(req.call).catch(() => undefined);
  const work = (() => {
    switch (req.type) {
      case 'load':
        return scorer.load(req.call, req.model).then(() => reply({ id: req.id }));
      case 'score':
        return scorer.score(req.call, req.batch, req.length).then((energies) => reply({ id: req.id, energies }, [energies.buffer]));
      case 'energies':
        return scorer.energies(req.call, req.part).then((energies) => reply({ id: req.id, energies }, [energies.buffer]));
      case 'gradients':
        return scorer.gradients(req.call, req.part, req.upstream).then((gradients) =>
          reply(
            { id: req.id, gradients },
            gradients.map(([, g]) => g.buffer),
          ),
        );
      case 'onePass':
        return scorer.onePass(req.call, req.part, req.step).then((gradients) =>
          reply(
            { id: req.id, gradients },
            gradients.map(([, g]) => g.buffer),
          ),
        );
    }
  })();
  work.catch((e: unknown) => reply({ id: req.id, error: e instanceof Error ? e.message : String(e) }));
});
