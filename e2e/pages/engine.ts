// Drives the app's real engine worker without the UI (benchmarks): commands in, events collected.
import type { Command } from '../../src/worker/protocols/commands.ts';
import type { WorkerEvent } from '../../src/worker/protocols/events.ts';

const worker = new Worker(new URL('../../src/worker/engine.worker.ts', import.meta.url), { type: 'module' });
const events: Array<WorkerEvent & { at: number }> = [];
worker.addEventListener('message', (e: MessageEvent<WorkerEvent>) => events.push({ ...e.data, at: performance.now() }));
(window as unknown as { engine: unknown }).engine = {
  events,
  send: (cmd: Command) => worker.postMessage(cmd),
  now: () => performance.now(),
};
