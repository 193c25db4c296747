/**
 * A Web Lock the engine worker holds for as long as it lives. The browser releases a context's locks
 * (held and requested) when it goes away, however it goes (closed, terminated, killed out of memory), so
 * the page can tell a worker that is only busy from one that is gone (see client/heartbeat.ts).
 *
 * The page names the lock and hands the name over in `init`: it knows what to ask about from the start,
 * not only once the worker has reported the lock granted (on Chromium 156 the grant can come after the
 * last ping the worker answered, and a page that learnt the name from pongs never learnt it).
 */

const lockManager = (): LockManager | undefined => globalThis.navigator?.locks;

/** On the page: a fresh name for a new worker's lock. */
export const newLifeLockName = (): string => `eorm-engine-alive-${crypto.randomUUID()}`;

/** In the worker: requests the lock `name` and never releases it (without Web Locks, nothing). */
export function holdLifeLock(name: string): void {
  void lockManager()?.request(name, () => new Promise<never>(() => undefined));
}

/**
 * On the page: whether the lock `name` is held or still requested (the worker lives); null when that
 * cannot be told (no name, no Web Locks). A worker asks for its lock on `init`, before it answers any
 * later ping, so a name that is neither held nor requested by then belongs to a worker that is gone.
 */
export async function isLifeLockHeld(name: string | null): Promise<boolean | null> {
  const locks = lockManager();
  if (!name || !locks) return null;
  const { held = [], pending = [] } = await locks.query();
  return [...held, ...pending].some((l) => l.name === name);
}
