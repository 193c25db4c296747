import { afterEach, describe, expect, test, vi } from 'vitest';
import { readWhole } from './dataLoader.ts';

/** A download of `total` bytes in 1 KiB chunks, with its Content-Length, counting the chunks handed out. */
function download(total: number) {
  const served = { chunks: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (served.chunks * 1024 >= total) return c.close();
      served.chunks++;
      c.enqueue(new Uint8Array(1024).fill(0x61));
    },
  });
  vi.stubGlobal('fetch', async () => new Response(body, { headers: { 'content-length': String(total) } }));
  return served;
}

describe('readWhole of a URL', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test('a download over the limit is not held whole: null (it streams instead), its body cancelled after at most a chunk or two', async () => {
    const served = download(64 * 1024);
    expect(await readWhole({ kind: 'url', url: 'http://x/big.jsonl', name: 'big.jsonl' }, 8 * 1024)).toBeNull();
    expect(served.chunks).toBeLessThanOrEqual(2);
  });

  test('one within the limit is read whole', async () => {
    download(4 * 1024);
    const whole = await readWhole({ kind: 'url', url: 'http://x/small.jsonl', name: 'small.jsonl' }, 8 * 1024);
    expect(whole?.bytes.byteLength).toBe(4 * 1024);
    expect(whole?.file.name).toBe('small.jsonl');
  });
});
