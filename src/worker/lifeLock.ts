/**
 * A Web Lock the engine worker holds for as long as it lives. The browser releases a context's locks
 * when it goes away, however it goes (closed, terminated, killed out of memory), so the page can tell a
 * worker that is only busy from one that is gone (see client/heartbeat.ts).
 */

/** In the worker: takes a lock of its own; the getter gives its name once it is held (null before, or without Web Locks). */
export function holdLifeLock(): () => string | null {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return () => null;
  const name = `eorm-engine-alive-${crypto.randomUUID()}`;
  let held = false;
  void locks.request(name, () => {
    held = true;
    return new Promise<never>(() => undefined); // never released by the worker itself
  });
  return () => (held ? name : null);
}

/** On the page: whether the lock `name` is still held; null when that cannot be told. */
export async function isLifeLockHeld(name: string | null): Promise<boolean | null> {
  if (!name || !navigator.locks) return null;
  const { held = [] } = await navigator.locks.query();
  return held.some((l) => l.name === name);
}
