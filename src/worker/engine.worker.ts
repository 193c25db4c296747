/**
 * The engine worker: owns TensorFlow.js (the backend the start-up probe picks, or the one asked for),
 * the data and the models. The UI talks to it only through the messages of protocols/; nothing here
 * touches the DOM. The engine itself is engineCore.ts; this file gives it the worker's port, the
 * browser's storage and the helper threads.
 */
import { createEngine } from './engineCore.ts';
import type { Command } from './protocols/commands.ts';
import type { WorkerEvent } from './protocols/events.ts';
import { lazyPeers } from './peers/peerPool.ts';
import { browserPersister } from './storage/browserStorage.ts';
import { lazyTokenizePool } from './data/tokenizeWorkers.ts';

const scope = self as unknown as {
  postMessage(message: WorkerEvent, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Command>) => void): void;
};

const emit = (event: WorkerEvent, transfer: Transferable[] = []) => scope.postMessage(event, transfer);
const persister = browserPersister(emit);
const handle = createEngine(emit, { tokenizePool: lazyTokenizePool, scoringPeers: lazyPeers, persister });
scope.addEventListener('message', (e) => handle(e.data));
