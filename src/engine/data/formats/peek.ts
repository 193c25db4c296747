/** The start of a stream, to detect its format, and the whole stream again to read it. */
const PEEK_LIMIT = 1 << 20;

export interface Peeked {
  stream: ReadableStream<Uint8Array>;
  /** The first character that is not whitespace or a BOM; null for an empty (or blank) start. */
  firstChar: string | null;
  /** The first non-blank line when it ends within the first MiB, else null. */
  firstLine: string | null;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: false });

export async function peek(stream: ReadableStream<Uint8Array>): Promise<Peeked> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let text = '';
  let done = false;
  while (size < PEEK_LIMIT) {
    const r = await reader.read();
    if (r.done) {
      done = true;
      break;
    }
    chunks.push(r.value);
    size += r.value.length;
    text = decoder.decode(concat(chunks, size)).replace(/^\uFEFF/, '');
    const first = text.search(/\S/);
    if (first >= 0 && (text[first] === '[' || text.indexOf('\n', first) >= 0)) break;
  }
  const first = text.search(/\S/);
  const end = first < 0 ? -1 : text.indexOf('\n', first);
  const firstLine = first < 0 ? null : end >= 0 ? text.slice(first, end) : done ? text.slice(first) : null;
  let i = 0;
  const replay = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i < chunks.length) return controller.enqueue(chunks[i++]);
      if (done) return controller.close();
      const r = await reader.read();
      if (r.done) controller.close();
      else controller.enqueue(r.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream: replay, firstChar: first < 0 ? null : text[first], firstLine };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
