/**
 * The one engine worker: starts it, posts typed commands, and routes every event into the stores.
 * Side effects that are not state (saving downloaded files) happen here, not in the reducers.
 */
import type { Command, WorkerEvent } from '../worker/protocol.ts';
import { engineStore } from '../state/engineStore.ts';
import { settingsStore } from '../state/settingsStore.ts';
import { initialBackendChoice } from './backendChoice.ts';
import { saveFile } from './download.ts';

let worker: Worker | null = null;
let estimateTimer: ReturnType<typeof setTimeout> | undefined;

const ESTIMATE_DEBOUNCE_MS = 200;

export function startWorker(): void {
  if (worker) return;
  const store = engineStore.getState();
  try {
    worker = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module' });
  } catch (e) {
    store.reportFailure(`The engine worker could not be created: ${String(e)}`);
    return;
  }
  worker.addEventListener('message', (e: MessageEvent<WorkerEvent>) => route(e.data));
  // A script that fails to load or throws outside a command never reaches the protocol's `error` event.
  worker.addEventListener('error', (e: ErrorEvent) => {
    store.reportFailure(`The engine worker failed: ${e.message || 'its script could not be loaded'}`);
  });
  worker.addEventListener('messageerror', () => store.reportFailure('A message from the engine worker could not be decoded.'));
  // ?backend=…, else the choice remembered from the header's selector, else auto (the start-up probe decides).
  send({ type: 'init', backend: initialBackendChoice() });
  // Every settings change asks for a fresh parameter/memory estimate, debounced while typing.
  settingsStore.subscribe((s, prev) => {
    if (s.settings !== prev.settings) scheduleEstimate();
  });
}

/** Posts a command; ArrayBuffers listed in `transfer` move to the worker without a copy. */
export function send(cmd: Command, transfer: Transferable[] = []): void {
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
