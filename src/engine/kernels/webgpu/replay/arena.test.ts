import { describe, expect, it } from 'vitest';
import { arenaSize, assignBuffers } from './arena.ts';

const S = 0x80 | 0x4 | 0x8;
const U = 0x40 | 0x8;

describe('the replay arena', () => {
  it('gives each need its own buffer, the smallest that fits with the same usage, largest needs first', () => {
    const have = [
      { size: 100, usage: S },
      { size: 400, usage: S },
      { size: 200, usage: S },
      { size: 1000, usage: U },
    ];
    expect(
      assignBuffers(
        [
          { size: 150, usage: S },
          { size: 90, usage: S },
          { size: 350, usage: S },
        ],
        have,
      ),
    ).toEqual([2, 0, 1]);
    // Two needs never share a buffer; one that nothing fits gets -1 (a new buffer).
    expect(
      assignBuffers(
        [
          { size: 50, usage: S },
          { size: 50, usage: S },
          { size: 50, usage: S },
          { size: 50, usage: S },
        ],
        have,
      ),
    ).toEqual([0, 2, 1, -1]);
    expect(
      assignBuffers(
        [
          { size: 500, usage: S },
          { size: 10, usage: U },
        ],
        have,
      ),
    ).toEqual([-1, 3]);
  });

  it('makes new buffers a little larger, in multiples of 4 bytes, at most a quarter more', () => {
    for (const n of [4, 100, 256, 4097, 10_000, 123_456, 2 ** 20, 3 * 2 ** 20 + 4]) {
      const s = arenaSize(n);
      expect(s).toBeGreaterThanOrEqual(n);
      expect(s % 4).toBe(0);
      expect(s).toBeLessThanOrEqual(Math.max(n * 1.25, 256));
    }
    // Nearby sizes share a size, so a capture's buffer fits the next one's.
    expect(arenaSize(5000)).toBe(arenaSize(5100));
  });
});
