/**
 * Test support: the exclusive part of the Web Locks API in memory, shared by everything in the test (so
 * "two tabs" are two users of one manager). `hold` takes a lock as another tab would; `beforeNextCall`
 * runs once, before the next request or query is answered (a moment another tab acts in).
 */
export interface FakeLocks {
  manager: LockManager;
  /** Holds `name` until the returned function is called (resolves once held). */
  hold(name: string): Promise<() => void>;
  beforeNextCall(hook: () => Promise<void>): void;
}

export function fakeLocks(): FakeLocks {
  const held = new Set<string>();
  const waiting = new Map<string, Array<() => void>>();
  let hook: (() => Promise<void>) | null = null;
  const interject = async () => {
    const h = hook;
    hook = null;
    if (h) await h();
  };
  const release = (name: string) => {
    held.delete(name);
    const next = waiting.get(name)?.shift();
    if (next) next();
  };
  const acquire = (name: string): Promise<void> => {
    if (!held.has(name)) {
      held.add(name);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = waiting.get(name) ?? [];
      queue.push(() => {
        held.add(name);
        resolve();
      });
      waiting.set(name, queue);
    });
  };
  type Callback = (lock: Lock | null) => unknown;
  const manager = {
    async request(name: string, a: LockOptions | Callback, b?: Callback): Promise<unknown> {
      const options = typeof a === 'function' ? {} : a;
      const callback = (typeof a === 'function' ? a : b)!;
      await interject();
      if (options.ifAvailable && held.has(name)) return callback(null);
      await acquire(name);
      try {
        return await callback({ name, mode: 'exclusive' } as Lock);
      } finally {
        release(name);
      }
    },
    async query(): Promise<LockManagerSnapshot> {
      await interject();
      return { held: [...held].map((name) => ({ name, mode: 'exclusive', clientId: 'fake' })), pending: [] };
    },
  } as unknown as LockManager;
  return {
    manager,
    hold: async (name) => {
      await acquire(name);
      return () => release(name);
    },
    beforeNextCall: (h) => (hook = h),
  };
}
