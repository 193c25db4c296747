import { describe, expect, it } from 'vitest';
import { splitLines, type SplitLinesOptions } from './lines.ts';
import { bytesStream } from './testing/node.ts';

interface Seen {
  lines: Array<[number, string, boolean]>;
  tooLong: Array<[number, number]>;
  progress: Array<[number, number]>;
}

async function collect(stream: ReadableStream<Uint8Array>, options?: SplitLinesOptions): Promise<Seen> {
  const seen: Seen = { lines: [], tooLong: [], progress: [] };
  await splitLines(
    stream,
    {
      line: (text, n, bad) => seen.lines.push([n, text, bad]),
      tooLong: (n, bytes) => seen.tooLong.push([n, bytes]),
      progress: (bytes, lines) => seen.progress.push([bytes, lines]),
    },
    options,
  );
  return seen;
}

const bytes = (...parts: Array<string | number[]>): Uint8Array => {
  const chunks = parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

describe('splitLines', () => {
  it('splits on LF and CRLF, keeps blank lines, counts a last line without newline', async () => {
    const seen = await collect(bytesStream('a\r\nb\n\n  \nc'));
    expect(seen.lines).toEqual([
      [1, 'a', false],
      [2, 'b', false],
      [3, '', false],
      [4, '  ', false],
      [5, 'c', false],
    ]);
  });

  it('does not invent a line after a final newline', async () => {
    expect((await collect(bytesStream('a\nb\n'))).lines.map((l) => l[1])).toEqual(['a', 'b']);
    expect((await collect(bytesStream(''))).lines).toEqual([]);
  });

  it('gives the same lines for every chunk size (multi-byte characters and CRLF split across chunks)', async () => {
    const text = '\uFEFFé€😀\r\n{"q": "日本"}\r\n\r\nlast 😀';
    const expected = (await collect(bytesStream(text, 1 << 16))).lines;
    expect(expected.map((l) => l[1])).toEqual(['é€😀', '{"q": "日本"}', '', 'last 😀']);
    for (const size of [1, 2, 3, 5, 7]) expect((await collect(bytesStream(text, size))).lines).toEqual(expected);
  });

  it('strips a BOM at the start of any line (files joined with cat), not a U+FEFF inside a line', async () => {
    const seen = await collect(bytesStream('\uFEFFa\n\uFEFFb\r\nc\uFEFF\n\uFEFF\uFEFFd', 1));
    expect(seen.lines.map((l) => l[1])).toEqual(['a', 'b', 'c\uFEFF', '\uFEFFd']);
  });

  it('replaces invalid UTF-8 with U+FFFD and flags only those lines', async () => {
    const data = bytes('ok\n', [0x61, 0xff, 0x62], '\n', 'real \uFFFD char\n', [0xe2, 0x82], '\n');
    const seen = await collect(bytesStream(data, 2));
    expect(seen.lines).toEqual([
      [1, 'ok', false],
      [2, 'a\uFFFDb', true],
      [3, 'real \uFFFD char', false],
      [4, '\uFFFD', true],
    ]);
  });

  it('reports a line over the limit with its size and goes on with the next line', async () => {
    // 'y' × 9 + CR is exactly at the limit: a line's size is its bytes before the LF.
    const data = `short\n${'x'.repeat(25)}\n${'y'.repeat(9)}\r\n${'z'.repeat(11)}`;
    for (const size of [1, 4, 1 << 16]) {
      const seen = await collect(bytesStream(data, size), { maxLineBytes: 10 });
      expect(seen.lines).toEqual([
        [1, 'short', false],
        [3, 'y'.repeat(9), false],
      ]);
      expect(seen.tooLong).toEqual([
        [2, 25],
        [4, 11],
      ]);
    }
  });

  it('reports progress in bytes and lines after every chunk, ending at the totals', async () => {
    const text = 'ab\ncd\nef';
    const seen = await collect(bytesStream(text, 3));
    expect(seen.progress).toEqual([
      [3, 1],
      [6, 2],
      [8, 2],
      [8, 3],
    ]);
  });

  it('reports progress inside a big chunk too (Blob streams can deliver megabytes at once)', async () => {
    const line = `${'x'.repeat(1000)}\n`;
    const text = line.repeat(3 * 1024);
    const seen = await collect(bytesStream(text, text.length));
    expect(seen.progress.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.progress.length; i++) expect(seen.progress[i][0]).toBeGreaterThan(seen.progress[i - 1][0]);
    expect(seen.progress.at(-1)).toEqual([text.length, 3 * 1024]);
  });

  it('does not buffer an over-long line: a 512 MiB line streams in bounded memory', async () => {
    const chunk = 1 << 20;
    let sent = 0;
    let peak = 0;
    const total = 512;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
        if (sent === total) {
          controller.enqueue(new TextEncoder().encode('\n{"after": 1}\n'));
          controller.close();
          return;
        }
        controller.enqueue(new Uint8Array(chunk).fill(0x61));
        sent++;
      },
    });
    const before = process.memoryUsage().arrayBuffers;
    const seen = await collect(stream, { maxLineBytes: 8 << 20 });
    expect(seen.tooLong).toEqual([[1, total * chunk]]);
    expect(seen.lines).toEqual([[2, '{"after": 1}', false]]);
    // Holding the line would need ≥ 512 MiB; garbage awaiting collection stays far below that.
    expect(peak - before).toBeLessThan(200 << 20);
  });

  it('stops on abort and cancels the source', async () => {
    const controller = new AbortController();
    let cancelled = false;
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulls++;
        c.enqueue(new TextEncoder().encode('line\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const run = splitLines(
      stream,
      {
        line: (_t, n) => {
          if (n === 3) controller.abort();
        },
        tooLong: () => undefined,
        progress: () => undefined,
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toThrow(/abort/i);
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(10);
  });
});
