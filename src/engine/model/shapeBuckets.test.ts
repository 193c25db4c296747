import { describe, expect, it } from 'vitest';
import { bucketUp, paddedLength } from './shapeBuckets.ts';

describe('shape buckets', () => {
  it('rounds up to powers of two and one and a half times them', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 16, 17, 25, 33, 100].map(bucketUp)).toEqual([1, 2, 3, 4, 6, 6, 8, 12, 12, 16, 16, 24, 32, 48, 128]);
    for (let n = 1; n <= 5000; n++) {
      const b = bucketUp(n);
      expect(b).toBeGreaterThanOrEqual(n);
      // At most a third of the padded work is padding: b − n ≤ b/3.
      expect(b - n).toBeLessThanOrEqual(b / 3);
    }
  });

  it('pads lengths to at least 32 and at most maxLen', () => {
    expect(paddedLength(1, 256)).toBe(32);
    expect(paddedLength(33, 256)).toBe(48);
    expect(paddedLength(130, 256)).toBe(192);
    expect(paddedLength(200, 256)).toBe(256);
    expect(paddedLength(256, 256)).toBe(256);
    expect(paddedLength(300, 320)).toBe(320);
  });
});
