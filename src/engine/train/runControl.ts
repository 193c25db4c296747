/**
 * Pause, resume and stop for a running training loop. The loop checks the flags before every step,
 * so each request takes effect within one step.
 */
export class RunControl {
  private paused = false;
  private stopped = false;
  private wake: (() => void) | null = null;

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

  private release(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
