import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sha256 } from '../sha256.ts';
import { readFiles } from './readFiles.ts';
import { decodedBytes } from '../testing/decodedBytes.ts';

/**
 * `bytes` as a byte stream, like a file's or a download's, that counts the bytes of the chunk buffers it
 * has to allocate: none when the reader brings its own buffer, every chunk when it does not.
 */
function countingByteStream(bytes: Uint8Array, chunk: number): { stream: ReadableStream<Uint8Array>; allocated: () => number } {
  let at = 0;
  let allocated = 0;
  const stream = new ReadableStream({
    type: 'bytes',
    pull(controller) {
      const request = controller.byobRequest;
      if (at >= bytes.length) {
        controller.close();
        request?.respond(0);
        return;
      }
      const n = Math.min(chunk, bytes.length - at);
      if (request?.view) {
        const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
        const m = Math.min(n, view.length);
        view.set(bytes.subarray(at, at + m));
        at += m;
        request.respond(m);
      } else {
        allocated += n;
        controller.enqueue(bytes.slice(at, at + n));
        at += n;
      }
    },
  });
  return { stream, allocated: () => allocated };
}

afterEach(() => vi.restoreAllMocks());

describe('reading a large file', () => {
  it('reads a byte stream into one reused buffer: chunk buffers allocated stay at the peeked start, not the file', async () => {
    // 8,000 lines of about 1 KB (8 MB) in 64 KB chunks, no labels: a picks set.
    const lines = Array.from({ length: 8000 }, (_, i) =>
      JSON.stringify({ question_id: `${i >> 4}`, question: `q${i >> 4}`, gen_text: `${'step '.repeat(190)}so the answer is ${i}` }),
    );
    const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
    const source = countingByteStream(bytes, 64 * 1024);
    const hash = new Sha256();
    const read = await readFiles([{ name: 'big.jsonl', stream: source.stream, size: bytes.length, onBytes: (b) => void hash.update(b) }]);
    expect(read.candidateCount).toBe(8000);
    expect(read.groups.length).toBe(500);
    expect(read.groups[499].candidates[15].genText.endsWith('so the answer is 7999')).toBe(true);
    // Every byte was told once, in order.
    expect(hash.hex()).toBe(new Sha256().update(bytes).hex());
    // Format detection reads the start as the stream hands it out (one chunk here); the rest reuses one buffer.
    // Read chunk by chunk as handed out, the whole file's 8 MB would be allocated (garbage once split).
    expect(source.allocated()).toBeLessThanOrEqual(64 * 1024);
    expect(bytes.length).toBeGreaterThan(100 * 64 * 1024);
  });

  it('makes ASCII lines without TextDecoder (a browser holds its strings outside the JS heap, freed late); others still decode', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ question: `q${i >> 3}`, gen_text: `${'so '.repeat(300)}${i % 100 === 0 ? 'é…日本 ' : ''}the answer is ${i}` }),
    );
    const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
    const nonAscii = lines.filter((l) => /[^\x00-\x7f]/.test(l));
    const { result, bytes: decoded } = await decodedBytes(() =>
      readFiles([{ name: 'a.jsonl', stream: countingByteStream(bytes, 64 * 1024).stream, size: bytes.length }]),
    );
    expect(result.candidateCount).toBe(2000);
    expect(result.groups[0].candidates[0].genText.endsWith('é…日本 the answer is 0')).toBe(true);
    expect(result.groups[1].candidates[0].genText.endsWith('so the answer is 8')).toBe(true);
    // Format detection decodes the first chunk; after it, only the non-ASCII lines (each at most twice: lenient, then strict).
    const nonAsciiBytes = nonAscii.reduce((n, l) => n + new TextEncoder().encode(l).length, 0);
    expect(decoded).toBeLessThanOrEqual(64 * 1024 + 2 * nonAsciiBytes);
    expect(bytes.length).toBeGreaterThan(10 * (64 * 1024 + 2 * nonAsciiBytes));
  });
});
