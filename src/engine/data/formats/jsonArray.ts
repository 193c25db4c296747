/**
 * Splits a top-level JSON array into its elements as the file's bytes stream past (python/eorm/formats/json_array.py
 * is the twin), each with the line it starts on. It works on bytes, not lines: a compact array written on one
 * line (`json.dump(list, f)`) is split element by element like an indented one, and only an element over the
 * size limit is skipped (its bytes counted, never held). Every byte that matters here is ASCII, and no byte of
 * a multi-byte UTF-8 character is ASCII, so no character has to be decoded to find the elements.
 */
import { type EachChunkOptions, eachChunk } from '../chunkReader.ts';
import { concat, decodeLine } from '../lines.ts';
import type { LineError } from '../types.ts';

export interface ArraySink {
  element(text: string, line: number, invalidUtf8: boolean): void;
  error(error: LineError): void;
}

const [LF, CR, TAB, SPACE, QUOTE, COMMA, BACKSLASH] = [0x0a, 0x0d, 0x09, 0x20, 0x22, 0x2c, 0x5c];
const [OPEN, CLOSE, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];

/** Whitespace between elements; the bytes of a byte-order mark (U+FEFF) count as blank, as JS's \s has it. */
const isBlank = (c: number) => c === SPACE || c === LF || c === CR || c === TAB || c === 0xef || c === 0xbb || c === 0xbf;

export class ArraySplitter {
  /** 0: before '[', 1: between elements, >1: inside a nested value; -1: given up. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  private inElement = false;
  private done = false;
  /** The line the next byte is on. */
  line = 1;
  private lastByte = -1;
  private startLine = 0;
  /** The element's bytes from earlier chunks (copied: a chunk is valid only until the next read). */
  private pieces: Uint8Array[] = [];
  private held = 0;
  /** ≥ 0 while the element is over the limit: its size so far. */
  private skipped = -1;
  /** The last line told "text after the end", so a line is told once. */
  private toldAfterEnd = 0;

  constructor(
    private readonly sink: ArraySink,
    private readonly maxElementBytes: number,
  ) {}

  chunk(bytes: Uint8Array): void {
    let from = this.inElement ? 0 : -1;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (this.done) {
        if (!isBlank(c) && this.toldAfterEnd !== this.line) this.fail('text after the end of the JSON array (one file holds one array)');
      } else if (this.depth === 0) {
        if (c === OPEN) this.depth = 1;
        else if (!isBlank(c)) this.fail('expected a JSON array starting with "["');
      } else if (!this.inElement && (isBlank(c) || c === COMMA)) {
        // between elements
      } else if (!this.inElement && c === CLOSE) {
        this.done = true;
      } else {
        if (!this.inElement) {
          this.inElement = true;
          this.startLine = this.line;
          from = i;
        }
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_OBJECT || c === OPEN) this.depth++;
        else if (c === CLOSE_OBJECT || c === CLOSE) {
          if (this.depth === 1) {
            this.finish(bytes.subarray(from, i));
            this.done = true;
          } else if (--this.depth === 1) this.finish(bytes.subarray(from, i + 1));
        } else if (c === COMMA && this.depth === 1) this.finish(bytes.subarray(from, i));
      }
      if (c === LF) this.line++;
    }
    if (this.inElement) this.hold(bytes.subarray(from));
    if (bytes.length > 0) this.lastByte = bytes[bytes.length - 1];
  }

  /** The file ended: an array still open was cut short. */
  end(): void {
    if (!this.done && this.depth > 0) {
      if (this.lastByte === LF) this.line--;
      this.fail('the JSON array is not closed: the file ends inside it (was it cut short?)');
    }
  }

  private hold(segment: Uint8Array): void {
    if (this.skipped >= 0) this.skipped += segment.length;
    else if (this.held + segment.length > this.maxElementBytes) {
      this.skipped = this.held + segment.length;
      this.pieces = [];
      this.held = 0;
    } else {
      this.pieces.push(segment.slice());
      this.held += segment.length;
    }
  }

  private finish(tail: Uint8Array): void {
    this.hold(tail);
    const [pieces, held, skipped] = [this.pieces, this.held, this.skipped];
    [this.pieces, this.held, this.skipped, this.inElement] = [[], 0, -1, false];
    if (skipped >= 0) {
      const reason = `array element too long: ${skipped} bytes (limit ${this.maxElementBytes}); it was skipped, the elements after it are read`;
      return this.sink.error({ line: this.startLine, field: '(line)', kind: 'line_too_long', reason });
    }
    const { text, invalidUtf8 } = decodeLine(concat(pieces, held));
    if (/\S/.test(text)) this.sink.element(text, this.startLine, invalidUtf8);
  }

  private fail(reason: string): void {
    this.sink.error({ line: this.line, field: '(line)', kind: 'invalid_json', reason });
    this.toldAfterEnd = this.line;
    [this.done, this.depth, this.inElement, this.pieces, this.held, this.skipped] = [true, -1, false, [], 0, -1];
  }
}

export interface SplitArrayOptions extends EachChunkOptions {
  maxElementBytes: number;
}

/** Reads `stream` to the end, calling `sink` for every element; `progress` after each chunk with the bytes and lines read so far. */
export async function splitArray(
  stream: ReadableStream<Uint8Array>,
  sink: ArraySink & { progress(bytes: number, lines: number): void },
  options: SplitArrayOptions,
): Promise<void> {
  const splitter = new ArraySplitter(sink, options.maxElementBytes);
  let bytes = 0;
  await eachChunk(
    stream,
    (chunk) => {
      splitter.chunk(chunk);
      bytes += chunk.length;
      sink.progress(bytes, splitter.line);
    },
    options,
  );
  splitter.end();
}
