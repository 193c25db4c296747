/**
 * The engine worker: owns TensorFlow.js (WebGPU, else CPU), the data and the models. The UI talks to it
 * only through the messages of protocol.ts; nothing here touches the DOM.
 */
import { type BackendInfo, initBackend } from './backend.ts';
import type { Command, WorkerEvent } from './protocol.ts';
import { Session } from './session.ts';
import { lazyTokenizePool } from './tokenizerPool.ts';

const scope = self as unknown as {
  postMessage(message: WorkerEvent, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Command>) => void): void;
};

let backend: BackendInfo | null = null;
let tokenizerWorkers: number | undefined;
const emit = (event: WorkerEvent, transfer: Transferable[] = []) => scope.postMessage(event, transfer);
const session = new Session(emit, lazyTokenizePool(() => tokenizerWorkers), () => backend);

// The backend starts on the UI's first init (it may ask for the CPU backend); every other command waits for it.
let resolveInit: (prefer: 'webgpu' | 'cpu') => void = () => undefined;
const firstInit = new Promise<'webgpu' | 'cpu'>((resolve) => (resolveInit = resolve));
const ready = firstInit.then(async (prefer) => {
  backend = await initBackend(prefer);
  emit({ type: 'ready', backend, hardwareConcurrency: navigator.hardwareConcurrency || 1 });
});

scope.addEventListener('message', (e) => {
  const cmd = e.data;
  if (cmd.type === 'init') {
    tokenizerWorkers = cmd.tokenizerWorkers;
    resolveInit(cmd.prefer ?? 'webgpu');
    return;
  }
  // Commands wait for the backend; pause/resume/stop must not queue behind a long command, and they don't:
  // each command runs as its own task, interleaving at every await.
  void ready
    .then(() => session.handle(cmd))
    .catch((err: unknown) =>
      emit({ type: 'error', command: cmd.type, message: err instanceof Error ? err.message : String(err), ...(cmd.type === 'loadData' ? { role: cmd.role } : {}) }),
    );
});
