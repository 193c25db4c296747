/**
 * The engine worker: owns TensorFlow.js (the backend the start-up probe picks, or the one asked for),
 * the data and the models. The UI talks to it only through the messages of protocol.ts; nothing here
 * touches the DOM.
 */
import { warmUp } from '../engine/train/warmUp.ts';
import { type BackendInfo, initBackend } from './backend.ts';
import type { BackendChoice } from './backendInfo.ts';
import { installCounters, readCounters } from './counters.ts';
import type { Command, WorkerEvent } from './protocol.ts';
import { destroyDevice, watchDevice } from './deviceLost.ts';
import { holdLifeLock } from './lifeLock.ts';
import { lazyScoringPeers } from './scoringPeers.ts';
import { Session } from './session.ts';
import { StudioDb } from './storage/db.ts';
import { Persister } from './storage/persister.ts';
import { lazyTokenizePool } from './tokenizerPool.ts';

const scope = self as unknown as {
  postMessage(message: WorkerEvent, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Command>) => void): void;
};

let backend: BackendInfo | null = null;
let tokenizerWorkers: number | undefined;
let scoringWorkers: number | undefined;
const emit = (event: WorkerEvent, transfer: Transferable[] = []) => scope.postMessage(event, transfer);
const lifeLock = holdLifeLock();
const persister = new Persister(
  StudioDb.open().catch((e: unknown) => {
    emit({ type: 'log', level: 'warn', message: `This browser's storage cannot be opened (${e instanceof Error ? e.message : String(e)}): runs and datasets are kept in memory only.` });
    return null;
  }),
  (message) => emit({ type: 'log', level: 'warn', message }),
);
const scoringPeers = lazyScoringPeers(() => backend, () => scoringWorkers);
const session = new Session(emit, lazyTokenizePool(() => tokenizerWorkers), () => backend, persister, scoringPeers);
const announce = async () => {
  emit({ type: 'ready', backend: backend!, hardwareConcurrency: navigator.hardwareConcurrency || 1 });
  // Start the scoring peers now (WASM only): they load their own engine while the user picks data.
  scoringPeers();
  // A warm-up that fails costs only the speed of the first pass.
  if (backend!.backend === 'wasm') await warmUp().catch(() => undefined);
};

// The backend starts on the UI's first init (it may name one); every other command waits for it.
let resolveInit: (choice: BackendChoice) => void = () => undefined;
const firstInit = new Promise<BackendChoice>((resolve) => (resolveInit = resolve));
const onDeviceLost = (message: string) => session.deviceLost(message);

const ready = firstInit.then(async (choice) => {
  backend = await initBackend(choice);
  watchDevice(onDeviceLost);
  await announce();
  // Storage trouble must not keep the engine from starting: the app then works in memory.
  await session.restore().catch((e: unknown) => emit({ type: 'log', level: 'warn', message: `Saved runs could not be restored: ${e instanceof Error ? e.message : String(e)}` }));
});

async function switchBackend(choice: BackendChoice): Promise<void> {
  if (session.isTraining()) throw new Error('Pause is not enough: stop the training run before switching the backend.');
  backend = await initBackend(choice);
  watchDevice(onDeviceLost);
  await announce();
}

scope.addEventListener('message', (e) => {
  const cmd = e.data;
  if (cmd.type === 'ping') {
    emit({ type: 'pong', lifeLock: lifeLock() });
    return;
  }
  if (cmd.type === 'counters') {
    installCounters();
    emit({ type: 'counters', ...readCounters() });
    return;
  }
  if (cmd.type === 'destroyDevice') {
    void ready.then(destroyDevice).catch((err: unknown) => emit({ type: 'error', command: cmd.type, message: err instanceof Error ? err.message : String(err) }));
    return;
  }
  if (cmd.type === 'init') {
    tokenizerWorkers = cmd.tokenizerWorkers;
    scoringWorkers = cmd.scoringWorkers;
    resolveInit(cmd.backend ?? 'auto');
    return;
  }
  // Commands wait for the backend; pause/resume/stop must not queue behind a long command, and they don't:
  // each command runs as its own task, interleaving at every await.
  void ready
    .then(() => (cmd.type === 'setBackend' ? switchBackend(cmd.backend) : session.handle(cmd)))
    .catch((err: unknown) =>
      emit({ type: 'error', command: cmd.type, message: err instanceof Error ? err.message : String(err), ...(cmd.type === 'loadData' ? { role: cmd.role } : {}) }),
    );
});
