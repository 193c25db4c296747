/**
 * Splits a byte stream into decoded text lines without ever holding the whole file.
 * Lines are cut on bytes (0x0A) before decoding, so a line's size is known in bytes and an
 * over-long line can be skipped without being buffered.
 */
import { type EachChunkOptions, eachChunk } from './chunkReader.ts';

export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

export interface LineSink {
  /** A complete line, without its line ending; `invalidUtf8` if bytes were replaced by U+FFFD. */
  line(text: string, lineNumber: number, invalidUtf8: boolean): void;
  /** A line longer than the limit; its bytes were skipped, not kept. */
  tooLong(lineNumber: number, bytes: number): void;
  /** After each chunk read (and every MiB within a big chunk): bytes consumed so far and lines completed so far. */
  progress(bytesRead: number, lines: number): void;
}

export interface SplitLinesOptions extends EachChunkOptions {
  /** Largest line, in bytes before the LF (a CR included). */
  maxLineBytes?: number;
}

const PROGRESS_BYTES = 1 << 20;
const LF = 0x0a;
const CR = 0x0d;

// ignoreBOM keeps U+FEFF in the output so that stripping it is our decision, made once per line below.
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const strict = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

/** Characters per String.fromCharCode call (an argument list's safe size). */
const CODES_PER_CALL = 8192;

/** `bytes` as text when every byte is ASCII; else null. */
function asciiText(bytes: Uint8Array): string | null {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return null;
  let text = '';
  for (let at = 0; at < bytes.length; at += CODES_PER_CALL) {
    text += String.fromCharCode.apply(null, bytes.subarray(at, at + CODES_PER_CALL) as unknown as number[]);
  }
  return text;
}

/** A line's (or an array element's) bytes as text, and whether invalid UTF-8 was replaced. */
export function decodeLine(bytes: Uint8Array): { text: string; invalidUtf8: boolean } {
  // ASCII lines (most) are made in the JS heap: a browser's TextDecoder returns strings held outside it,
  // which a collection frees late, so a large file's decoded lines would pile up as garbage while it streams.
  const ascii = asciiText(bytes);
  if (ascii !== null) return { text: ascii, invalidUtf8: false };
  const text = lenient.decode(bytes);
  // A U+FFFD may also be a genuine character; only then pay for a strict re-check.
  if (!text.includes('\uFFFD')) return { text, invalidUtf8: false };
  try {
    strict.decode(bytes);
    return { text, invalidUtf8: false };
  } catch {
    return { text, invalidUtf8: true };
  }
}

export function concat(pieces: Uint8Array[], total: number): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Reads `stream` to the end, calling `sink` for every line (LF or CRLF endings; a last line without a newline counts). */
export async function splitLines(stream: ReadableStream<Uint8Array>, sink: LineSink, options: SplitLinesOptions = {}): Promise<void> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let pieces: Uint8Array[] = [];
  let pending = 0; // bytes of the current line held in `pieces`
  let skipped = -1; // ≥ 0 while skipping an over-long line: its byte count so far
  let lineNumber = 0;
  let bytesRead = 0;

  const endLine = () => {
    lineNumber++;
    if (skipped >= 0) {
      sink.tooLong(lineNumber, skipped);
      skipped = -1;
      return;
    }
    let bytes = concat(pieces, pending);
    pieces = [];
    pending = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    const { text, invalidUtf8 } = decodeLine(bytes);
    // A BOM starts the file, and also a later line where files were joined (`cat a.jsonl b.jsonl`).
    sink.line(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, lineNumber, invalidUtf8);
  };

  const take = (segment: Uint8Array, copy: boolean) => {
    if (skipped >= 0) {
      skipped += segment.length;
    } else if (pending + segment.length > maxLineBytes) {
      skipped = pending + segment.length;
      pieces = [];
      pending = 0;
    } else if (segment.length > 0) {
      pieces.push(copy ? segment.slice() : segment);
      pending += segment.length;
    }
  };

  await eachChunk(
    stream,
    (value) => {
      let pos = 0;
      let reported = 0;
      for (;;) {
        const nl = value.indexOf(LF, pos);
        if (nl === -1) {
          // The tail outlives this chunk; copy it so we never depend on the producer not reusing its buffer.
          take(value.subarray(pos), true);
          break;
        }
        take(value.subarray(pos, nl), false);
        endLine();
        pos = nl + 1;
        // Blob streams can hand over megabytes at once; keep the progress bar moving inside a chunk.
        if (pos - reported >= PROGRESS_BYTES) {
          sink.progress(bytesRead + pos, lineNumber);
          reported = pos;
        }
      }
      bytesRead += value.length;
      sink.progress(bytesRead, lineNumber);
    },
    options,
  );
  if (pending > 0 || skipped >= 0) {
    endLine();
    sink.progress(bytesRead, lineNumber);
  }
}
