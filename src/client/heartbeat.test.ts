import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type EngineDown, Heartbeat, HEARTBEAT_TIMING } from './heartbeat.ts';

const { intervalMs, silentMs, hungMs } = HEARTBEAT_TIMING;

/** A fake worker: answers each ping (after `delayMs`) while `answering`; `lock` is what its life lock says. */
function setup(lock: boolean | null, delayMs = 10) {
  const downs: EngineDown[] = [];
  const worker = { answering: true, lock, pings: 0 };
  const beat = new Heartbeat({
    ping: () => {
      worker.pings++;
      if (worker.answering) setTimeout(() => worker.answering && beat.heard(), delayMs);
    },
    lifeLockHeld: () => Promise.resolve(worker.lock),
    onDown: (d) => downs.push(d),
  });
  return { beat, worker, downs };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Heartbeat', () => {
  it('never judges a worker that answers its pings, even slowly, however long it runs', async () => {
    const { beat, worker, downs } = setup(true, intervalMs - 1);
    beat.start();
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(worker.pings).toBeGreaterThan(300);
    expect(downs).toEqual([]);
  });

  it('judges a worker gone once it has missed several beats over the silence threshold and its life lock is released', async () => {
    const { beat, worker, downs } = setup(true);
    beat.start();
    await vi.advanceTimersByTimeAsync(60_000);
    worker.answering = false;
    worker.lock = false; // killed: the browser released its lock
    await vi.advanceTimersByTimeAsync(silentMs - intervalMs);
    expect(downs).toEqual([]);
    await vi.advanceTimersByTimeAsync(2 * intervalMs);
    expect(downs).toHaveLength(1);
    expect(downs[0].verdict).toBe('gone');
    expect(downs[0].silentMs).toBeGreaterThanOrEqual(silentMs);
    // Judged once; the heartbeat stops pinging a dead worker.
    const pings = worker.pings;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(worker.pings).toBe(pings);
    expect(downs).toHaveLength(1);
  });

  it('takes a silent worker that still holds its life lock for busy, and for hung only after hungMs', async () => {
    const { beat, worker, downs } = setup(true);
    beat.start();
    await vi.advanceTimersByTimeAsync(intervalMs);
    worker.answering = false; // one long synchronous kernel
    await vi.advanceTimersByTimeAsync(hungMs - 2 * intervalMs);
    expect(downs).toEqual([]);
    await vi.advanceTimersByTimeAsync(3 * intervalMs);
    expect(downs.map((d) => d.verdict)).toEqual(['hung']);
    expect(downs[0].silentMs).toBeGreaterThanOrEqual(hungMs);
  });

  it('starts counting afresh when a busy worker answers again', async () => {
    const { beat, worker, downs } = setup(true);
    beat.start();
    await vi.advanceTimersByTimeAsync(intervalMs);
    for (let i = 0; i < 5; i++) {
      worker.answering = false;
      await vi.advanceTimersByTimeAsync(hungMs - 3 * intervalMs);
      worker.answering = true;
      await vi.advanceTimersByTimeAsync(2 * intervalMs);
    }
    expect(downs).toEqual([]);
  });

  it('without a life lock to ask, judges on the missed beats alone', async () => {
    const { beat, worker, downs } = setup(null);
    beat.start();
    await vi.advanceTimersByTimeAsync(intervalMs);
    worker.answering = false;
    await vi.advanceTimersByTimeAsync(silentMs - intervalMs);
    expect(downs).toEqual([]);
    await vi.advanceTimersByTimeAsync(2 * intervalMs);
    expect(downs.map((d) => d.verdict)).toEqual(['silent']);
  });

  it('does not judge a worker that never answered yet (still loading its modules)', async () => {
    const { beat, worker, downs } = setup(null);
    worker.answering = false;
    beat.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(downs).toEqual([]);
    worker.answering = true;
    await vi.advanceTimersByTimeAsync(intervalMs + 100);
    worker.answering = false;
    await vi.advanceTimersByTimeAsync(silentMs + 2 * intervalMs);
    expect(downs.map((d) => d.verdict)).toEqual(['silent']);
  });

  it('counts silence in unanswered pings, not wall time: pings answered between sparse (throttled) ticks are no alarm', async () => {
    const downs: EngineDown[] = [];
    // A background tab's timers: one tick a minute, far beyond silentMs; the worker answers each ping at once.
    const beat: Heartbeat = new Heartbeat({
      ping: () => queueMicrotask(() => beat.heard()),
      lifeLockHeld: () => Promise.resolve(null),
      onDown: (d) => downs.push(d),
      timing: { ...HEARTBEAT_TIMING, intervalMs: 60_000, missedBeats: 1 },
    });
    beat.start();
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(downs).toEqual([]);
  });

  it('on an error event, a released life lock means gone at once; a held or unknown one waits for the beats', async () => {
    for (const [lock, expected] of [
      [false, ['gone']],
      [true, []],
      [null, []],
    ] as const) {
      const { beat, downs } = setup(lock);
      beat.start();
      await vi.advanceTimersByTimeAsync(intervalMs);
      beat.suspect();
      await vi.advanceTimersByTimeAsync(0);
      expect(downs.map((d) => d.verdict)).toEqual(expected);
      beat.stop();
    }
  });

  it('stop() ends the pings and any verdict', async () => {
    const { beat, worker, downs } = setup(false);
    beat.start();
    await vi.advanceTimersByTimeAsync(intervalMs);
    worker.answering = false;
    beat.stop();
    const pings = worker.pings;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(worker.pings).toBe(pings);
    expect(downs).toEqual([]);
  });
});
