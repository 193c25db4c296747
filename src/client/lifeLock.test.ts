import { afterEach, describe, expect, it, vi } from 'vitest';
import { type EngineDown, Heartbeat, HEARTBEAT_TIMING } from './heartbeat.ts';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { createEngine } from '../worker/engineCore.ts';
import { isLifeLockHeld, newLifeLockName } from '../worker/lifeLock.ts';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import { Persister } from '../worker/storage/persister.ts';

/** Web Locks as the browser keeps them: a request waits until `grant()` runs its callback; `kill()` drops the worker's locks. */
function fakeLocks() {
  const held = new Set<string>();
  const pending = new Map<string, () => void>();
  return {
    manager: {
      request(name: string, cb: () => Promise<never>) {
        pending.set(name, () => (held.add(name), void cb()));
        return new Promise<never>(() => undefined);
      },
      query: async () => ({ held: [...held].map((name) => ({ name })), pending: [...pending.keys()].map((name) => ({ name })) }),
    },
    grant: () => {
      for (const [name, run] of pending) (pending.delete(name), run());
    },
    kill: () => (held.clear(), pending.clear()),
  };
}

/** The engine (worker side) and the page's heartbeat (client side) wired as engineConnection.ts wires them. */
function engineAndPage() {
  let alive = true;
  const downs: EngineDown[] = [];
  const lifeLock = newLifeLockName();
  const beat = new Heartbeat({
    ping: () => alive && handle({ type: 'ping' }),
    lifeLockHeld: () => isLifeLockHeld(lifeLock),
    onDown: (d) => downs.push(d),
  });
  const emit = (_event: WorkerEvent) => alive && beat.heard();
  const handle = createEngine(emit, {
    tokenizePool: () => () => inProcessPool(),
    scoringPeers: () => () => [],
    persister: new Persister(Promise.resolve(null), () => undefined),
    backends: ['cpu'],
  });
  beat.start();
  handle({ type: 'init', backend: 'cpu', lifeLock });
  return { downs, stopAnswering: () => (alive = false) };
}

const { intervalMs, silentMs, hungMs } = HEARTBEAT_TIMING;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the life lock', () => {
  it('tells a killed worker gone even when its lock was granted after the last ping it answered', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks: locks.manager });
    vi.useFakeTimers();
    const { downs, stopAnswering } = engineAndPage();
    await vi.advanceTimersByTimeAsync(2 * intervalMs);
    locks.grant(); // after the last answered ping: no pong ever followed the grant
    stopAnswering();
    locks.kill();
    await vi.advanceTimersByTimeAsync(2 * silentMs);
    // The old protocol learnt the name from pongs sent after the grant: it judged this worker 'silent'.
    expect(downs.map((d) => d.verdict)).toEqual(['gone']);
  });

  it('counts a worker whose lock is still only requested as alive: busy, then hung, never gone', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks: locks.manager });
    vi.useFakeTimers();
    const { downs, stopAnswering } = engineAndPage();
    await vi.advanceTimersByTimeAsync(intervalMs);
    stopAnswering(); // one long synchronous kernel; the grant waits behind it
    await vi.advanceTimersByTimeAsync(hungMs - intervalMs);
    expect(downs).toEqual([]);
    await vi.advanceTimersByTimeAsync(2 * intervalMs);
    expect(downs.map((d) => d.verdict)).toEqual(['hung']);
  });

  it('says only "silent" where the browser has no Web Locks', async () => {
    vi.stubGlobal('navigator', {});
    vi.useFakeTimers();
    const { downs, stopAnswering } = engineAndPage();
    await vi.advanceTimersByTimeAsync(intervalMs);
    stopAnswering();
    await vi.advanceTimersByTimeAsync(2 * silentMs);
    expect(downs.map((d) => d.verdict)).toEqual(['silent']);
  });
});
