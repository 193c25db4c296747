import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Peeked, peek } from './peek.ts';
import { decodedBytes } from '../testing/decodedBytes.ts';

/** `text`'s bytes handed over in chunks of `chunk` bytes, as a file or network stream does. */
function chunked(text: string, chunk: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

/** The peeked chunks, then the rest of the stream: what a reader reads on from. */
async function readAll(p: Peeked): Promise<string> {
  const parts = [...p.head];
  const reader = p.rest.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  const bytes = new Uint8Array(parts.reduce((n, c) => n + c.length, 0));
  parts.reduce((at, c) => (bytes.set(c, at), at + c.length), 0);
  // ignoreBOM: the bytes, a BOM included, are compared with the text given.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

afterEach(() => vi.restoreAllMocks());

describe('peek', () => {
  const KB = 1024;
  // A hostile first line: a run of one character longer than the 1 MiB peeked, arriving 1 KB at a time.
  const longLine = `{"gen_text":"${'a'.repeat(1_100_000)}","label":1}`;

  it.each([
    ['ended within the limit', `${longLine.slice(0, 600 * KB)}"}\n{"x":2}\n`, `${longLine.slice(0, 600 * KB)}"}`],
    ['longer than the limit', `${longLine}\n{"x":2}\n`, null],
  ])('a first line %s, in 1 KB chunks, is decoded once: each byte peeked passes the decoder once', async (_name, text, line) => {
    const { result, bytes } = await decodedBytes(() => peek(chunked(text, KB)));
    expect(result.firstChar).toBe('{');
    // Compared as a boolean: a failure would otherwise print a megabyte.
    expect(result.firstLine === line, `first line of ${result.firstLine?.length} chars`).toBe(true);
    // The peeked bytes (at most the 1 MiB limit and the chunk that passed it), each once; decoding the
    // whole text so far for every chunk would be ~500× this.
    expect(bytes).toBeLessThanOrEqual((1 << 20) + KB);
    expect((await readAll(result)) === text, 'the head and the rest give the whole stream').toBe(true);
  });

  it('a BOM and blank lines before the first line are skipped; a character split across chunks stays whole', async () => {
    const text = '\uFEFF\n  \n{"q":"é…日本"}\n{"x":1}';
    for (const chunk of [1, 2, 3, 5, 64]) {
      const p = await peek(chunked(text, chunk));
      expect([p.firstChar, p.firstLine], `chunks of ${chunk}`).toEqual(['{', '{"q":"é…日本"}']);
      expect(await readAll(p)).toBe(text);
    }
  });

  it('an array, a last line without a newline, a blank file', async () => {
    expect((await peek(chunked('  [{"a":1},\n{"a":2}]', 4))).firstChar).toBe('[');
    const last = await peek(chunked('\n{"a":1}', 3));
    expect([last.firstChar, last.firstLine]).toEqual(['{', '{"a":1}']);
    const blank = await peek(chunked(' \n\t\n', 2));
    expect([blank.firstChar, blank.firstLine]).toEqual([null, null]);
  });
});
