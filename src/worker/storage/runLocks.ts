/**
 * One tab at a time per run (Web Locks): the tab training a run holds its lock, so another tab on the
 * same app neither marks it interrupted, nor resumes it, nor deletes it, and only one writes it.
 * Where the API is missing (Node) every lock is granted.
 */
const lockName = (runId: string) => `eorm-studio-run:${runId}`;

function locks(): LockManager | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

/** Takes the run's lock if no tab holds it: the release function, or null when another tab has it. */
export function lockRun(runId: string): Promise<(() => void) | null> {
  const manager = locks();
  if (!manager) return Promise.resolve(() => undefined);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  return new Promise((resolve) => {
    void manager.request(lockName(runId), { ifAvailable: true }, async (lock) => {
      if (!lock) return resolve(null);
      resolve(release);
      await held;
    });
  });
}

/**
 * Runs `work` holding the run's lock, so no other tab trains, writes or deletes the run meanwhile: at once
 * if no tab holds it (else `null`, and `work` does not run), or, with `wait`, as soon as it is let go.
 */
export async function underRunLock<T>(runId: string, work: () => Promise<T>, wait = false): Promise<{ value: T } | null> {
  const manager = locks();
  if (!manager) return { value: await work() };
  return manager.request(lockName(runId), { ifAvailable: !wait }, async (lock) => (lock ? { value: await work() } : null));
}
