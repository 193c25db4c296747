/**
 * Splits a top-level JSON array into its elements as the file's lines stream past (lines.ts), so an array
 * of many samples is parsed one element at a time, each with the line it starts on.
 */
import type { LineError } from '../types.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export interface ArraySink {
  element(text: string, line: number): void;
  error(error: LineError): void;
}

export class ArraySplitter {
  /** 0: before '[', 1: between elements, >1: inside a nested value; -1: after ']' (or given up). */
  private depth = 0;
  private inString = false;
  private escaped = false;
  private parts: string[] = [];
  private startLine = 0;
  private inElement = false;
  private done = false;

  constructor(private readonly sink: ArraySink) {}

  /** One line of the file (without its newline). */
  line(text: string, line: number): void {
    if (this.done) {
      if (/\S/.test(text)) this.fail(line, 'text after the end of the JSON array (one file holds one array)');
      return;
    }
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (this.depth === 0) {
        if (c === 0x5b) this.depth = 1;
        else if (!isSpace(c) && c !== 0xfeff) return this.fail(line, 'expected a JSON array starting with "["');
        continue;
      }
      if (!this.inElement) {
        if (isSpace(c) || c === 0x2c) continue;
        if (c === 0x5d) {
          this.done = true;
          if (/\S/.test(text.slice(i + 1))) this.fail(line, 'text after the end of the JSON array (one file holds one array)');
          return;
        }
        this.inElement = true;
        this.startLine = line;
        from = i;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (this.depth === 1) {
          this.finishElement(text.slice(from, i));
          this.done = true;
          return;
        }
        if (--this.depth === 1) {
          this.finishElement(text.slice(from, i + 1));
          from = i + 1;
        }
      } else if (c === 0x2c && this.depth === 1) {
        this.finishElement(text.slice(from, i));
      }
    }
    if (this.inElement) this.parts.push(text.slice(from));
  }

  /** A line too long to hold: the elements after it cannot be found. */
  tooLong(line: number, bytes: number, limit: number): void {
    this.fail(line, `line too long: ${bytes} bytes (limit ${limit}); the rest of the JSON array was not read`, 'line_too_long');
  }

  end(lastLine: number): void {
    if (!this.done && this.depth !== 0) this.fail(lastLine, 'the JSON array is not closed: the file ends inside it (was it cut short?)');
  }

  private finishElement(tail: string): void {
    this.parts.push(tail);
    const text = this.parts.join('\n');
    this.parts = [];
    this.inElement = false;
    if (/\S/.test(text)) this.sink.element(text, this.startLine);
  }

  private fail(line: number, reason: string, kind: LineError['kind'] = 'invalid_json'): void {
    this.sink.error({ line, field: '(line)', kind, reason });
    this.done = true;
    this.depth = -1;
    this.inElement = false;
    this.parts = [];
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
