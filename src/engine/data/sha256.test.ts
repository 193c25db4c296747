import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { Sha256 } from './sha256.ts';

const nodeHex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('Sha256 (incremental)', () => {
  it('matches the FIPS 180-4 examples', () => {
    const hex = (s: string) => new Sha256().update(new TextEncoder().encode(s)).hex();
    expect(hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it("equals Node's crypto on random inputs fed in random chunks (every length around the 55/56/64-byte padding edges)", () => {
    const rng = createRng(7);
    const rand = () => rng.next();
    const lengths = [...Array.from({ length: 200 }, (_, i) => i), 1000, 4095, 4096, 4097, 65_537, 1_000_003];
    for (const n of lengths) {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = Math.floor(rand() * 256);
      const h = new Sha256();
      for (let at = 0; at < n;) {
        // Chunks of 0 to ~2 blocks, and sometimes much larger.
        const step = rand() < 0.1 ? Math.floor(rand() * 100_000) : Math.floor(rand() * 130);
        h.update(bytes.subarray(at, Math.min(n, at + step)));
        at += step;
      }
      expect(h.hex(), `length ${n}`).toBe(nodeHex(bytes));
    }
  });
});
