/**
 * Notices that the engine worker has died or hung, without the DOM (so it is tested with fake timers).
 *
 * A worker killed by the browser (e.g. out of memory) fires no `error` event: the page only sees it fall
 * silent. But a live worker is silent too while one synchronous kernel runs (seconds when WebGPU compiles
 * pipelines on a software adapter, longer for a big step on WASM), so silence alone is weak evidence:
 * - silence is counted in pings that went unanswered, not in time since the last message, so throttled
 *   page timers (background tabs) or a sleeping laptop do not add up to a false alarm;
 * - silence counts only once the worker has answered once (loading its modules takes a while);
 * - once silent long enough, the worker's life lock (a Web Lock it holds until it dies) decides: released
 *   means gone; still held means busy, and it counts as hung only after `hungMs`.
 */

export interface HeartbeatTiming {
  /** A ping every intervalMs. */
  intervalMs: number;
  /** Silence is judged once this many pings in a row are unanswered, the first sent at least silentMs ago. */
  missedBeats: number;
  silentMs: number;
  /** A silent worker still holding its life lock counts as hung after this long. */
  hungMs: number;
}

export const HEARTBEAT_TIMING: HeartbeatTiming = { intervalMs: 5_000, missedBeats: 5, silentMs: 25_000, hungMs: 180_000 };

/** 'gone': its life lock was released; 'silent': no lock to ask, only the missed beats; 'hung': alive but silent for hungMs. */
export type Verdict = 'gone' | 'silent' | 'hung';

export interface EngineDown {
  verdict: Verdict;
  /** How long it had been silent when judged (0 if it had answered its last ping). */
  silentMs: number;
}

export interface HeartbeatDeps {
  ping(): void;
  /** Whether the worker still holds its life lock: null when that cannot be told (no lock known, no Web Locks). */
  lifeLockHeld(): Promise<boolean | null>;
  /** Called once, when the worker is judged down; the heartbeat then stops. */
  onDown(down: EngineDown): void;
  timing?: HeartbeatTiming;
  now?: () => number;
}

export class Heartbeat {
  private timer: ReturnType<typeof setInterval> | undefined;
  private answeredOnce = false;
  /** Pings in a row without an answer, and when the first of them was sent. */
  private unanswered = 0;
  private silentSince = 0;
  private checking = false;
  private ended = false;
  private readonly timing: HeartbeatTiming;
  private readonly now: () => number;

  constructor(private readonly deps: HeartbeatDeps) {
    this.timing = deps.timing ?? HEARTBEAT_TIMING;
    this.now = deps.now ?? Date.now;
  }

  start(): void {
    this.sendPing();
    this.timer = setInterval(() => this.tick(), this.timing.intervalMs);
  }

  stop(): void {
    this.ended = true;
    clearInterval(this.timer);
  }

  /** Any message from the worker (a pong or any event) shows it alive. */
  heard(): void {
    this.answeredOnce = true;
    this.unanswered = 0;
  }

  /** The worker reported an error (its `error` event): if its life lock is gone, so is it; no need to wait for silence. */
  suspect(): void {
    void this.judge((held) => (held === false ? 'gone' : null));
  }

  private tick(): void {
    if (this.ended) return;
    const silentFor = this.now() - this.silentSince;
    if (this.answeredOnce && this.unanswered >= this.timing.missedBeats && silentFor >= this.timing.silentMs) {
      void this.judge((held) => (held === false ? 'gone' : held === null ? 'silent' : silentFor >= this.timing.hungMs ? 'hung' : null));
    }
    this.sendPing();
  }

  private sendPing(): void {
    if (this.unanswered === 0) this.silentSince = this.now();
    this.unanswered++;
    this.deps.ping();
  }

  /** Asks about the life lock (one question at a time); `verdict` turns the answer into a verdict or null (alive). */
  private async judge(verdict: (held: boolean | null) => Verdict | null): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    const held = await this.deps.lifeLockHeld().catch(() => null);
    this.checking = false;
    const v = verdict(held);
    if (this.ended || v === null) return;
    // An answer that arrived while the lock was asked about clears silence, not a released lock.
    if (v !== 'gone' && this.unanswered === 0) return;
    this.stop();
    this.deps.onDown({ verdict: v, silentMs: this.unanswered === 0 ? 0 : this.now() - this.silentSince });
  }
}
