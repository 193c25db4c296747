/**
 * Seeded PRNG (mulberry32). Integer-only arithmetic (Math.imul, >>>), so the same seed gives the
 * same stream in every JS engine — the data split and the training order must be reproducible.
 * The whole state is one uint32: `createRng(rng.state)` resumes a stream exactly (for checkpoints).
 */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Current state; pass it to createRng to continue the same stream. */
  readonly state: number;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    get state() {
      return a;
    },
  };
}

/** Fisher–Yates shuffle in place, driven by `rng`. */
export function shuffleInPlace<T>(items: { [i: number]: T; length: number }, rng: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
}

// lowbias32 (C. Wellons), a bijection of u32 with good avalanche.
export function lowbias32(v: number): number {
  v ^= v >>> 16;
  v = Math.imul(v, 0x7feb352d);
  v ^= v >>> 15;
  v = Math.imul(v, 0x846ca68b);
  v ^= v >>> 16;
  return v >>> 0;
}

/** A well-spread 32-bit seed from two integers (a splitmix-style finaliser). */
export function mixSeed(a: number, b: number): number {
  return lowbias32((Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(b + 0x632be5ab, 0xc2b2ae35)) | 0);
}
