import type { WorkerEvent } from '../protocols/events.ts';
import { StudioDb } from './db.ts';
import { Persister } from './persister.ts';

/**
 * The engine worker's storage: the app's database, with what other tabs do to it told in plain words.
 * An open that another tab blocks is a banner, and marks the persister blocked so that the engine
 * goes on meanwhile (the open itself goes through once that tab lets go, and the restore then runs).
 */
export function browserPersister(emit: (event: WorkerEvent) => void, name?: string): Persister {
  const warn = (message: string) => emit({ type: 'log', level: 'warn', message });
  let blocked = false;
  const opening = StudioDb.open(name, {
    blocked: (message) => {
      blocked = true;
      emit({ type: 'error', command: null, message });
      persister.markBlocked();
    },
    closed: (message, reload) => (reload ? emit({ type: 'error', command: null, message }) : emit({ type: 'log', level: 'info', message })),
  });
  const persister: Persister = new Persister(
    opening
      .then((db) => {
        if (blocked) emit({ type: 'log', level: 'info', message: 'The other EORM Studio tab let go of the storage: saved runs and datasets are open again.' });
        return db;
      })
      .catch((e: unknown) => {
        warn(`This browser's storage cannot be opened (${e instanceof Error ? e.message : String(e)}): runs and datasets are kept in memory only.`);
        return null;
      }),
    warn,
  );
  return persister;
}
