/**
 * Joins the engine connection to the stores: every event goes to the engine store's reducer, and the
 * training form asks for a fresh parameter/memory estimate whenever it changes and whenever an engine
 * becomes ready (a new backend has new limits).
 */
import { connectEngine, send } from '../client/engineConnection.ts';
import { engineStore } from './engineStore.ts';
import { settingsStore } from './settingsStore.ts';

const ESTIMATE_DEBOUNCE_MS = 200;

let started = false;
let estimateTimer: ReturnType<typeof setTimeout> | undefined;

export function startEngine(): void {
  if (started) return;
  started = true;
  const store = () => engineStore.getState();
  connectEngine({
    isDown: () => store().engineDown !== null,
    eventReceived: (ev) => {
      store().eventReceived(ev);
      if (ev.type === 'ready') requestEstimate();
    },
    commandSent: (cmd) => store().commandSent(cmd),
    reportFailure: (message) => store().reportFailure(message),
    engineStopped: (down) => store().engineStopped(down),
    engineRestarted: () => store().engineRestarted(),
  });
  // Debounced, so typing in a field asks once.
  settingsStore.subscribe((s, prev) => {
    if (s.settings !== prev.settings) scheduleEstimate();
  });
}

const requestEstimate = () => send({ type: 'estimate', settings: settingsStore.getState().settings });

function scheduleEstimate(): void {
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(() => {
    // Before `ready` the worker has no backend limits to check against; `ready` triggers one.
    if (engineStore.getState().backend) requestEstimate();
  }, ESTIMATE_DEBOUNCE_MS);
}
