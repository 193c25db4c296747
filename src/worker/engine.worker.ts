/**
 * The engine worker: owns TensorFlow.js (the backend the start-up probe picks, or the one asked for),
 * the data and the models. The UI talks to it only through the messages of protocol.ts; nothing here
 * touches the DOM. The engine itself is engineCore.ts; this file gives it the worker's port, the
 * browser's storage and the helper threads.
 */
import { createEngine } from './engineCore.ts';
import type { Command, WorkerEvent } from './protocol.ts';
import { lazyScoringPeers } from './scoringPeers.ts';
import { StudioDb } from './storage/db.ts';
import { Persister } from './storage/persister.ts';
import { lazyTokenizePool } from './tokenizerPool.ts';

const scope = self as unknown as {
  postMessage(message: WorkerEvent, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Command>) => void): void;
};

const emit = (event: WorkerEvent, transfer: Transferable[] = []) => scope.postMessage(event, transfer);
const persister = new Persister(
  StudioDb.open().catch((e: unknown) => {
    emit({ type: 'log', level: 'warn', message: `This browser's storage cannot be opened (${e instanceof Error ? e.message : String(e)}): runs and datasets are kept in memory only.` });
    return null;
  }),
  (message) => emit({ type: 'log', level: 'warn', message }),
);
const handle = createEngine(emit, { tokenizePool: lazyTokenizePool, scoringPeers: lazyScoringPeers, persister });
scope.addEventListener('message', (e) => handle(e.data));
