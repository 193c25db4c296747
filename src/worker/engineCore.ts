/**
 * The engine behind the worker's message port: the backend started on the first `init`, the session,
 * the bench's counters. engine.worker.ts gives it the browser's port, storage and helper threads; the
 * Node GPU bench (src/bench/nodeEngine.ts) runs it in-process with none of them.
 */
import { activeProfile, useProfile } from '../engine/backend/profile.ts';
import { stepReplay } from '../engine/kernels/webgpu/replay/stepReplay.ts';
import { warmUp } from '../engine/train/warmUp.ts';
import type { TokenizePool } from '../engine/data/tokenize/tokenizePool.ts';
import type { StepPeer } from '../engine/train/step/stepPeer.ts';
import { type BackendInfo, initBackend } from './backend/backend.ts';
import type { BackendChoice, BackendName } from './backend/backendInfo.ts';
import { installCounters, readCounters } from './backend/counters.ts';
import type { Command } from './protocols/commands.ts';
import type { WorkerEvent } from './protocols/events.ts';
import { destroyDevice, watchDevice } from './backend/deviceLost.ts';
import { holdLifeLock } from './lifeLock.ts';
import { Session } from './session.ts';
import type { Persister } from './storage/persister.ts';

export interface EngineDeps {
  /** The tokenizer threads, `size` as the UI's `init` asks (undefined: the default). */
  tokenizePool(size: () => number | undefined): () => TokenizePool;
  /** The scoring threads (WASM only), `size` likewise; `backend` is the one running. */
  scoringPeers(backend: () => BackendInfo | null, size: () => number | undefined): () => ReadonlyArray<StepPeer>;
  persister: Persister;
  /** The backends the start-up probe tries (default: every one). */
  backends?: readonly BackendName[];
}

export type Emit = (event: WorkerEvent, transfer?: Transferable[]) => void;

/** Returns the handler of every command; events go out through `emit`. */
export function createEngine(emit: Emit, deps: EngineDeps): (cmd: Command) => void {
  let backend: BackendInfo | null = null;
  let tokenizerWorkers: number | undefined;
  let scoringWorkers: number | undefined;
  let lockAsked = false;
  const scoringPeers = deps.scoringPeers(
    () => backend,
    () => scoringWorkers,
  );
  const session = new Session(
    emit,
    deps.tokenizePool(() => tokenizerWorkers),
    () => backend,
    deps.persister,
    scoringPeers,
  );
  const announce = async () => {
    emit({ type: 'ready', backend: backend!, hardwareConcurrency: globalThis.navigator?.hardwareConcurrency || 1 });
    if (backend!.backend !== 'wasm') return;
    // A warm-up that fails costs only the speed of the first pass.
    await warmUp(activeProfile()).catch(() => undefined);
    // The scoring peers start now, not on first use: a message reaches a peer only once it runs and this
    // thread has had a turn since, so one started at a file's load sat idle through a run's first step when
    // Start came at once (docs/performance-log.md). Idle, they add about 90 MiB while a large file loads.
    scoringPeers();
  };

  // The backend starts on the UI's first init (it may name one); every other command waits for it.
  let resolveInit: (choice: BackendChoice) => void = () => undefined;
  const firstInit = new Promise<BackendChoice>((resolve) => (resolveInit = resolve));
  const onDeviceLost = (message: string) => session.deviceLost(message);

  const ready = firstInit.then(async (choice) => {
    backend = await initBackend(choice, deps.backends);
    watchDevice(onDeviceLost);
    await announce();
    // Storage trouble must not keep the engine from starting: the app then works in memory. Storage that
    // another tab keeps from opening holds back the restore only: commands go on, the restore when it opens.
    const restored = session
      .restore()
      .catch((e: unknown) => emit({ type: 'log', level: 'warn', message: `Saved runs could not be restored: ${e instanceof Error ? e.message : String(e)}` }));
    await Promise.race([restored, deps.persister.storageBlocked]);
  });

  async function switchBackend(choice: BackendChoice): Promise<void> {
    if (session.isTraining()) throw new Error('Pause is not enough: stop the training run before switching the backend.');
    backend = await initBackend(choice, deps.backends);
    watchDevice(onDeviceLost);
    await announce();
  }

  return (cmd) => {
    if (cmd.type === 'ping') {
      emit({ type: 'pong' });
      return;
    }
    if (cmd.type === 'counters') {
      if (cmd.replay === false) useProfile({ ...activeProfile(), replaySteps: false });
      if (cmd.precision === 'f32') useProfile({ ...activeProfile(), halfPrecision: false });
      installCounters();
      if (cmd.profile && activeProfile().replaySteps) {
        void stepReplay()
          .profile()
          .then((replayProfile) => emit({ type: 'counters', ...readCounters(), replayProfile }))
          .catch((err: unknown) => emit({ type: 'error', command: cmd.type, message: err instanceof Error ? err.message : String(err) }));
        return;
      }
      emit({ type: 'counters', ...readCounters(), halfPrecision: activeProfile().halfPrecision });
      return;
    }
    if (cmd.type === 'destroyDevice') {
      void ready
        .then(destroyDevice)
        .catch((err: unknown) => emit({ type: 'error', command: cmd.type, message: err instanceof Error ? err.message : String(err) }));
      return;
    }
    if (cmd.type === 'init') {
      if (cmd.lifeLock && !lockAsked) holdLifeLock(cmd.lifeLock);
      lockAsked = true;
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
        emit({
          type: 'error',
          command: cmd.type,
          message: err instanceof Error ? err.message : String(err),
          ...(cmd.type === 'loadData' ? { role: cmd.role } : {}),
        }),
      );
  };
}
