/**
 * The one engine worker: starts it (and restarts it when it died), posts typed commands, and hands every
 * event to the listener (the stores, see src/state/engineLink.ts), which it does not know. Side effects
 * that are not state (saving downloaded files) happen here, not in the reducers.
 */
import type { BackendChoice } from '../worker/backend/backendInfo.ts';
import { isLifeLockHeld, newLifeLockName } from '../worker/lifeLock.ts';
import type { Command } from '../worker/protocols/commands.ts';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import { initialBackendChoice } from './backendChoice.ts';
import { saveFile } from './download.ts';
import { type EngineDown, Heartbeat } from './heartbeat.ts';

/** What the connection tells the page about the engine, and the one thing it asks of it. */
export interface EngineListener {
  /** The engine was judged dead or hung: commands are refused, and what it still says is dropped, until a restart. */
  isDown(): boolean;
  eventReceived(ev: WorkerEvent): void;
  /** Called before the command is posted. */
  commandSent(cmd: Command): void;
  /** A failure outside the protocol (the worker script failing to load or crashing), or a command that could not be sent. */
  reportFailure(message: string): void;
  engineStopped(down: EngineDown): void;
  engineRestarted(): void;
}

let listener: EngineListener | null = null;
let worker: Worker | null = null;
let heartbeat: Heartbeat | null = null;
/** The backend the engine was asked for (at start, or last in the header): a restart asks for it again by default. */
let backendChoice: BackendChoice = 'auto';

/** Starts the engine worker once; `to` hears from it from then on, through restarts. */
export function connectEngine(to: EngineListener): void {
  if (worker) return;
  listener = to;
  // ?backend=…, else the choice remembered from the header's selector, else auto (the start-up probe decides).
  backendChoice = initialBackendChoice();
  spawn(to);
}

/** Replaces a dead (or hung) engine worker with a new one on `backend`, without a page reload. */
export function restartWorker(backend: BackendChoice): void {
  if (!listener) return;
  heartbeat?.stop();
  worker?.terminate();
  worker = null;
  backendChoice = backend;
  listener.engineRestarted();
  spawn(listener);
}

export const currentBackendChoice = (): BackendChoice => backendChoice;

function spawn(to: EngineListener): void {
  let w: Worker;
  try {
    w = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module' });
  } catch (e) {
    to.reportFailure(`The engine worker could not be created: ${String(e)}`);
    return;
  }
  worker = w;
  const lifeLock = newLifeLockName();
  const beat = new Heartbeat({
    ping: () => w.postMessage({ type: 'ping' } satisfies Command),
    lifeLockHeld: () => isLifeLockHeld(lifeLock),
    onDown: (down) => to.engineStopped(down),
  });
  heartbeat = beat;
  // After a restart, what the old worker had already posted is dropped: it belongs to the dead engine.
  // So is what a worker judged hung says after the verdict: the verdict stands until the restart.
  const current = () => worker === w && !to.isDown();
  w.addEventListener('message', (e: MessageEvent<WorkerEvent>) => {
    if (!current()) return;
    beat.heard();
    if (e.data.type !== 'pong') route(to, e.data);
  });
  // A script that fails to load or throws outside a command never reaches the protocol's `error` event;
  // the worker may have died with it, which its life lock tells at once.
  w.addEventListener('error', (e: ErrorEvent) => {
    if (!current()) return;
    to.reportFailure(`The engine worker failed: ${e.message || 'its script could not be loaded'}`);
    beat.suspect();
  });
  w.addEventListener('messageerror', () => to.reportFailure('A message from the engine worker could not be decoded.'));
  beat.start();
  send({ type: 'init', backend: backendChoice, lifeLock });
}

/** Posts a command; ArrayBuffers listed in `transfer` move to the worker without a copy. */
export function send(cmd: Command, transfer: Transferable[] = []): void {
  if (!listener) throw new Error(`Cannot send "${cmd.type}": the engine was never started.`);
  if (listener.isDown()) {
    // Estimates are background requests (the restarted engine's `ready` asks again); anything else was the user's.
    if (cmd.type !== 'estimate') listener.reportFailure(`“${cmd.type}” was not sent: the engine has stopped. Restart it first.`);
    return;
  }
  if (cmd.type === 'setBackend') backendChoice = cmd.backend;
  listener.commandSent(cmd);
  if (!worker) {
    listener.reportFailure(`Cannot send "${cmd.type}": the engine worker is not running.`);
    return;
  }
  worker.postMessage(cmd, transfer);
}

function route(to: EngineListener, ev: WorkerEvent): void {
  if (ev.type === 'errorList') saveFile(ev.text, ev.fileName, ev.mime);
  if (ev.type === 'exported') saveFile(ev.bytes, ev.fileName, 'application/octet-stream');
  to.eventReceived(ev);
}
