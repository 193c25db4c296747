import type { Params } from '../model/params.ts';

/** A copy of the weights in training, taken between two steps; whoever asked for it disposes it. */
export interface WeightsSnapshot {
  params: Params;
  /** Optimizer steps applied to these weights. */
  step: number;
}

/** Makes a snapshot, synchronously, at a moment the loop knows the weights are whole. */
export type TakeSnapshot = () => WeightsSnapshot;

interface Request {
  resolve: (s: WeightsSnapshot) => void;
  reject: (e: unknown) => void;
}

/**
 * Pause, resume, stop and weight snapshots for a running training loop. The loop checks the flags
 * before every step, so each request takes effect within one step. The weights must never be read
 * directly during a run: a step may be half applied (and the lazy embedding is stale until synced),
 * so readers ask for a snapshot, which the loop makes between two steps.
 */
export class RunControl {
  private paused = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private requests: Request[] = [];
  /** Set while the loop is not stepping (validating, paused, finished): requests are answered at once. */
  private still: TakeSnapshot | null = null;

  get pauseRequested(): boolean {
    return this.paused && !this.stopped;
  }

  get stopRequested(): boolean {
    return this.stopped;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.release();
  }

  stop(): void {
    this.stopped = true;
    this.release();
  }

  /** Resolves once resumed or stopped. */
  waitWhilePaused(): Promise<void> {
    if (!this.pauseRequested) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  /** The weights as they stand between two steps: at the loop's next step boundary, or now if it is not stepping. */
  snapshot(): Promise<WeightsSnapshot> {
    const take = this.still;
    // A throw inside the executor becomes a rejection.
    if (take) return new Promise((resolve) => resolve(take()));
    return new Promise((resolve, reject) => this.requests.push({ resolve, reject }));
  }

  /** For the loop, between two steps: answers every waiting request. */
  serveSnapshots(take: TakeSnapshot): void {
    const waiting = this.requests;
    this.requests = [];
    for (const r of waiting) {
      try {
        r.resolve(take());
      } catch (e) {
        r.reject(e);
      }
    }
  }

  /** For the loop: runs `work` (a validation, a pause) during which no step runs, answering requests at once. */
  async holdStill<T>(take: TakeSnapshot, work: () => Promise<T>): Promise<T> {
    this.serveSnapshots(take);
    this.still = take;
    try {
      return await work();
    } finally {
      this.still = null;
    }
  }

  /** For the loop, once it is over: waiting and later requests get the final weights. */
  finish(take: TakeSnapshot): void {
    this.still = take;
    this.serveSnapshots(take);
  }

  private release(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
