/**
 * Test support: Sessions over one browser database (the test imports fake-indexeddb), each a tab of the app
 * or the same tab after a reload, and the wait that the Session's fire-and-forget writes need.
 */
import { harness } from './sessionHarness.ts';
import { StudioDb } from '../storage/db.ts';
import { Persister } from '../storage/persister.ts';

export const settle = () => new Promise((r) => setTimeout(r, 20));

/** A fresh database, named after `prefix` and unique, so that tests never see each other's records. */
export const newDb = (prefix: string) => StudioDb.open(`${prefix}-${Math.random()}`) as Promise<StudioDb>;

/**
 * A Session on `db`; `onEvent` may answer within the same task (through `send`); `storedMaxBytes`: the largest
 * training file it stores (the app's cap when left out). `runs()` is the run list as last sent to the UI.
 */
export function tab(db: StudioDb, onEvent?: Parameters<typeof harness>[0], storedMaxBytes?: number) {
  const h = harness(onEvent, new Persister(Promise.resolve(db), () => undefined));
  if (storedMaxBytes !== undefined) h.session.storedMaxBytes = storedMaxBytes;
  const runs = () => h.last('runs')?.runs ?? [];
  const datasets = () => h.all('dataset');
  return { ...h, runs, datasets };
}

/** An `onEvent` for `tab` that stops the run once, as soon as its metrics reach `step`. */
export function stopAtStep(step: number): Parameters<typeof harness>[0] {
  let sent = false;
  return (e, send) => {
    if (e.type === 'metrics' && !sent && e.points.at(-1)!.step >= step) {
      sent = true;
      send({ type: 'stop' });
    }
  };
}

/** Lets the writes already issued for run `id` commit: resolves once its stored record stops changing. */
export async function writesSettled(db: StudioDb, id: string): Promise<void> {
  let last = '';
  for (let i = 0; i < 50; i++) {
    await settle();
    const now = JSON.stringify(await db.getRun(id));
    if (now === last) return;
    last = now;
  }
}
