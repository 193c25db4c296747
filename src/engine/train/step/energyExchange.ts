/** Which side publishes: the engine's thread or its peer's. */
export const ENGINE = 0;
export const PEER = 1;

export type Waited = 'ready' | 'late' | 'past';

/**
 * Energies handed between the engine and its peer in the middle of one tape (sharedStep.ts's one-pass
 * step): a SharedArrayBuffer with a step number per side and room for a step's energies. A side writes
 * its energies, then its step number, and wakes the other; the other blocks (Atomics.wait, allowed in
 * workers) until that number reaches its step's. Step numbers only grow: a side that finds the other
 * past its step knows the step was given up.
 */
export class EnergyExchange {
  private readonly flags: Int32Array;
  private readonly values: Float32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.flags = new Int32Array(buffer, 0, 2);
    this.values = new Float32Array(buffer, 8);
  }

  /** Null where threads cannot share memory (a page that is not cross-origin isolated). */
  static create(capacity: number): EnergyExchange | null {
    if (typeof SharedArrayBuffer === 'undefined' || typeof Atomics === 'undefined') return null;
    return new EnergyExchange(new SharedArrayBuffer(8 + 4 * capacity));
  }

  get capacity(): number {
    return this.values.length;
  }

  publish(side: number, step: number, offset: number, energies: ArrayLike<number>): void {
    this.values.set(energies, offset);
    Atomics.store(this.flags, side, step);
    Atomics.notify(this.flags, side);
  }

  /** Blocks until `side` has published `step` ('ready'), gone past it ('past') or not within `timeoutMs` ('late'). */
  wait(side: number, step: number, timeoutMs: number): Waited {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const seen = Atomics.load(this.flags, side);
      if (seen === step) return 'ready';
      if (seen > step) return 'past';
      const left = deadline - performance.now();
      if (left <= 0) return 'late';
      Atomics.wait(this.flags, side, seen, left);
    }
  }

  read(offset: number, count: number): Float32Array {
    return this.values.slice(offset, offset + count);
  }
}
