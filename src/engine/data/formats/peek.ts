/** The start of a stream, to detect its format, and the stream to read on from. */
const PEEK_LIMIT = 1 << 20;

export interface Peeked {
  /** The peeked chunks and the stream they came from, unlocked, to read on from (as a byte stream, if it is one). */
  head: Uint8Array[];
  rest: ReadableStream<Uint8Array>;
  /** The first character that is not whitespace or a BOM; null for an empty (or blank) start. */
  firstChar: string | null;
  /** The first non-blank line when it ends within the first MiB, else null. */
  firstLine: string | null;
}

/**
 * Each chunk is decoded once, as it comes, and only its own text searched: a first line of a MiB that
 * arrives in many small chunks costs one pass over it, not one per chunk.
 */
export async function peek(stream: ReadableStream<Uint8Array>): Promise<Peeked> {
  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  const chunks: Uint8Array[] = [];
  const pieces: string[] = [];
  let size = 0;
  let length = 0; // chars decoded so far
  let first = -1; // offset of the first non-blank char
  let end = -1; // offset of the newline that ends the first non-blank line
  let firstChar: string | null = null;
  let done = false;
  const take = (piece: string) => {
    if (first < 0) {
      const at = piece.search(/\S/);
      if (at >= 0) {
        first = length + at;
        firstChar = piece[at];
      }
    }
    if (first >= 0 && end < 0) {
      const nl = piece.indexOf('\n', Math.max(0, first - length));
      if (nl >= 0) end = length + nl;
    }
    pieces.push(piece);
    length += piece.length;
  };
  while (size < PEEK_LIMIT) {
    const r = await reader.read();
    if (r.done) {
      done = true;
      take(decoder.decode());
      break;
    }
    chunks.push(r.value);
    size += r.value.length;
    take(decoder.decode(r.value, { stream: true }));
    if (firstChar === '[' || end >= 0) break;
  }
  // A line not ended by the limit is cut: its last bytes may be half a character, decoded as U+FFFD as before.
  if (!done && end < 0) take(decoder.decode());
  const text = first >= 0 && (end >= 0 || done) ? pieces.join('') : '';
  const firstLine = first < 0 ? null : end >= 0 ? text.slice(first, end) : done ? text.slice(first) : null;
  reader.releaseLock();
  return {
    head: chunks,
    rest: stream,
    firstChar,
    firstLine,
  };
}
