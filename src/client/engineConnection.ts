/**
 * The one engine worker: starts it (and restarts it when it died), posts typed commands, and routes
 * every event into the stores. Side effects that are not state (saving downloaded files) happen here,
 * not in the reducers.
 */
import type { BackendChoice } from '../worker/backendInfo.ts';
import { isLifeLockHeld } from '../worker/lifeLock.ts';
import type { Command, WorkerEvent } from '../worker/protocol.ts';
import { engineStore } from '../state/engineStore.ts';
import { settingsStore } from '../state/settingsStore.ts';
import { initialBackendChoice } from './backendChoice.ts';
import { saveFile } from './download.ts';
import { Heartbeat } from './heartbeat.ts';

let worker: Worker | null = null;
let heartbeat: Heartbeat | null = null;
/** The backend the engine was asked for (at start, or last in the header): a restart asks for it again by default. */
let backendChoice: BackendChoice = 'auto';
let estimateTimer: ReturnType<typeof setTimeout> | undefined;

const ESTIMATE_DEBOUNCE_MS = 200;

export function startWorker(): void {
  if (worker) return;
  // ?backend=…, else the choice remembered from the header's selector, else auto (the start-up probe decides).
  backendChoice = initialBackendChoice();
  spawn();
  // Every settings change asks for a fresh parameter/memory estimate, debounced while typing.
  settingsStore.subscribe((s, prev) => {
    if (s.settings !== prev.settings) scheduleEstimate();
  });
}

/** Replaces a dead (or hung) engine worker with a new one on `backend`, without a page reload. */
export function restartWorker(backend: BackendChoice): void {
  heartbeat?.stop();
  worker?.terminate();
  worker = null;
  backendChoice = backend;
  engineStore.getState().engineRestarted();
  spawn();
}

export const currentBackendChoice = (): BackendChoice => backendChoice;

function spawn(): void {
  const store = engineStore.getState();
  let w: Worker;
  try {
    w = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module' });
  } catch (e) {
    store.reportFailure(`The engine worker could not be created: ${String(e)}`);
    return;
  }
  worker = w;
  let lifeLock: string | null = null;
  const beat = new Heartbeat({
    ping: () => w.postMessage({ type: 'ping' } satisfies Command),
    lifeLockHeld: () => isLifeLockHeld(lifeLock),
    onDown: (down) => engineStore.getState().engineStopped(down),
  });
  heartbeat = beat;
  // After a restart, what the old worker had already posted is dropped: it belongs to the dead engine.
  // So is what a worker judged hung says after the verdict: the verdict stands until the restart.
  const current = () => worker === w && !engineStore.getState().engineDown;
  w.addEventListener('message', (e: MessageEvent<WorkerEvent>) => {
    if (!current()) return;
    beat.heard();
    if (e.data.type === 'pong') lifeLock = e.data.lifeLock ?? lifeLock;
    else route(e.data);
  });
  // A script that fails to load or throws outside a command never reaches the protocol's `error` event;
  // the worker may have died with it, which its life lock tells at once.
  w.addEventListener('error', (e: ErrorEvent) => {
    if (!current()) return;
    store.reportFailure(`The engine worker failed: ${e.message || 'its script could not be loaded'}`);
    beat.suspect();
  });
  w.addEventListener('messageerror', () => store.reportFailure('A message from the engine worker could not be decoded.'));
  beat.start();
  send({ type: 'init', backend: backendChoice });
}

/** Posts a command; ArrayBuffers listed in `transfer` move to the worker without a copy. */
export function send(cmd: Command, transfer: Transferable[] = []): void {
  if (engineStore.getState().engineDown) {
    // Estimates are background requests (the restarted engine's `ready` asks again); anything else was the user's.
    if (cmd.type !== 'estimate') engineStore.getState().reportFailure(`“${cmd.type}” was not sent: the engine has stopped. Restart it first.`);
    return;
  }
  if (cmd.type === 'setBackend') backendChoice = cmd.backend;
  engineStore.getState().commandSent(cmd);
  if (!worker) {
    engineStore.getState().reportFailure(`Cannot send "${cmd.type}": the engine worker is not running.`);
    return;
  }
  worker.postMessage(cmd, transfer);
}

function scheduleEstimate(): void {
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(() => {
    // Before `ready` the worker has no backend limits to check against; `ready` triggers one.
    if (engineStore.getState().backend) send({ type: 'estimate', settings: settingsStore.getState().settings });
  }, ESTIMATE_DEBOUNCE_MS);
}

function route(ev: WorkerEvent): void {
  if (ev.type === 'errorList') saveFile(ev.text, ev.fileName, ev.mime);
  if (ev.type === 'exported') saveFile(ev.bytes, ev.fileName, 'application/octet-stream');
  engineStore.getState().eventReceived(ev);
  if (ev.type === 'ready') send({ type: 'estimate', settings: settingsStore.getState().settings });
}
