import { describe, expect, it } from 'vitest';
import { createRng, shuffleInPlace } from './rng.ts';

/** The widely published mulberry32 (Tommy Ettinger / bryc), verbatim, as the reference. */
function referenceMulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    let t = (a += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('createRng', () => {
  it('matches the reference mulberry32 stream', () => {
    for (const seed of [0, 1, 42, 123456789]) {
      const ref = referenceMulberry32(seed);
      const rng = createRng(seed);
      for (let i = 0; i < 1000; i++) expect(rng.next()).toBe(ref());
    }
  });

  it('resumes exactly from its state', () => {
    const a = createRng(7);
    for (let i = 0; i < 10; i++) a.next();
    const b = createRng(a.state);
    for (let i = 0; i < 10; i++) expect(b.next()).toBe(a.next());
  });

  it('int(n) stays in range and hits every value', () => {
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const v = rng.int(5);
      expect(Number.isInteger(v) && v >= 0 && v < 5).toBe(true);
      seen.add(v);
    }
    expect(seen.size).toBe(5);
  });
});

describe('shuffleInPlace', () => {
  it('permutes, and is reproducible for a seed', () => {
    const a = Array.from({ length: 20 }, (_, i) => i);
    const b = a.slice();
    shuffleInPlace(a, createRng(42));
    shuffleInPlace(b, createRng(42));
    expect(a).toEqual(b);
    expect(a).not.toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(a.slice().sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
