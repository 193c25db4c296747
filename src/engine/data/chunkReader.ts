/**
 * A byte stream's chunks read into one reused buffer where the stream allows it (a file's or a download's
 * bytes), else as the stream hands them out. Chunks handed out are garbage as soon as they are split into
 * lines, and a large file's worth of them piles up before a collection frees it: reading into one buffer
 * keeps what a read holds at one chunk. A chunk is valid only until the next read.
 */
const BUFFER_BYTES = 1 << 20;

export interface ChunkReader {
  /** The next chunk (valid until the next call), or null at the end. */
  read(): Promise<Uint8Array | null>;
  cancel(): Promise<void>;
  releaseLock(): void;
}

/** `head`: chunks already taken from the stream's start (e.g. to detect its format), read first. */
export function chunkReader(stream: ReadableStream<Uint8Array>, head: readonly Uint8Array[] = []): ChunkReader {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: its chunks are read as they come.
  }
  const plain = byob === null ? stream.getReader() : null;
  const reader = byob ?? plain!;
  let buffer = new ArrayBuffer(byob === null ? 0 : BUFFER_BYTES);
  let next = 0;
  return {
    async read() {
      if (next < head.length) return head[next++];
      if (plain !== null) {
        const r = await plain.read();
        return r.done ? null : r.value;
      }
      const r = await byob!.read(new Uint8Array(buffer));
      if (r.done) return null;
      // The read took the buffer over and hands it back in its answer.
      buffer = r.value.buffer as ArrayBuffer;
      return r.value;
    },
    cancel: () => reader.cancel(),
    releaseLock: () => reader.releaseLock(),
  };
}

export interface EachChunkOptions {
  /** Chunks already taken from the stream's start (e.g. to detect its format): handed over first. */
  head?: readonly Uint8Array[];
  signal?: AbortSignal;
  /** Each chunk before `take` has it (e.g. to hash the bytes); valid only during the call. */
  onChunk?: (bytes: Uint8Array) => void;
}

/** Reads `stream` to the end, handing each chunk to `take` (valid only during the call); on abort or a failing `take`, cancels the source. */
export async function eachChunk(stream: ReadableStream<Uint8Array>, take: (chunk: Uint8Array) => void, options: EachChunkOptions = {}): Promise<void> {
  const reader = chunkReader(stream, options.head);
  let finished = false;
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const value = await reader.read();
      if (value === null) break;
      options.onChunk?.(value);
      take(value);
    }
    finished = true;
  } finally {
    // Release the source (e.g. a file handle); a cancel failure would only mask the real error.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
