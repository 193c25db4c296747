import { describe, expect, it } from 'vitest';
import { bucketLength, bucketUp, padLength, paddedLength } from './shapeBuckets.ts';

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

  it('padLength gives every path the shapes of the two rules it replaced, for every length 1..4096 and maxLen', () => {
    // The rules as they were written before padLength: multiples of 32 (batch.ts), then replay's buckets (this file).
    const multipleOf32 = (n: number, maxLen: number) => Math.min(maxLen, Math.ceil(n / 32) * 32);
    const replayBucket = (n: number, maxLen: number) => Math.min(maxLen, bucketUp(Math.max(32, n)));
    const differing: string[] = [];
    let checked = 0;
    for (let maxLen = 16; maxLen <= 4096; maxLen += 16) {
      for (let n = 1; n <= Math.min(4096, maxLen); n++) {
        const tfjs = padLength(n, maxLen, false); // chunkPasses, scoring's planned batches, the peers
        const step = padLength(n, maxLen, true); // the replayed WebGPU step
        const score = padLength(tfjs, maxLen, true); // the replayed scoring batch, from its planned length
        if (tfjs !== multipleOf32(n, maxLen) || tfjs !== bucketLength(n, maxLen)) differing.push(`tfjs ${n}/${maxLen}`);
        if (step !== replayBucket(n, maxLen) || step !== paddedLength(n, maxLen)) differing.push(`step ${n}/${maxLen}`);
        if (score !== replayBucket(multipleOf32(n, maxLen), maxLen)) differing.push(`score ${n}/${maxLen}`);
        checked++;
      }
    }
    expect(differing).toEqual([]);
    expect(checked).toBe(Array.from({ length: 256 }, (_, i) => Math.min(4096, 16 * (i + 1))).reduce((a, b) => a + b, 0));
  });
});
