/**
 * What a file that is not JSON Lines (nor a JSON array) is, in words that say what to do (python/eorm/formats/sniff.py
 * is the twin): a compressed or UTF-16 file is refused from its first bytes, before any line is read as JSON;
 * a text file without a valid line (CSV, one pretty-printed JSON object) is named from its first line.
 */

import { describeValue } from '../record.ts';

/** Thrown for a file whose bytes cannot be JSON text: nothing of the read is kept. */
export class NotJsonTextError extends Error {
  constructor(file: string, problem: string) {
    super(`${file} ${problem}`);
    this.name = 'NotJsonTextError';
  }
}

const startsWith = (b: Uint8Array, ...bytes: number[]) => bytes.every((x, i) => b[i] === x);

/** A file's first `n` bytes, from the chunks it came in (a stream may hand them over a byte at a time). */
function firstBytes(chunks: readonly Uint8Array[], n: number): Uint8Array {
  const out: number[] = [];
  for (const c of chunks) for (let i = 0; i < c.length && out.length < n; i++) out.push(c[i]);
  return Uint8Array.from(out);
}

/** Why a file starting with `chunks` cannot be JSON text, or null. */
export function notJsonText(chunks: readonly Uint8Array[]): string | null {
  const head = firstBytes(chunks, 4);
  if (startsWith(head, 0x1f, 0x8b)) return 'is gzip-compressed: decompress it first (e.g. gunzip FILE.jsonl.gz), then load the file inside';
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04)) return 'is a zip archive: unzip it, then load the .jsonl or .json file inside';
  // UTF-16 (or UTF-32): a byte-order mark, or the NUL bytes beside each ASCII character ("{" is 7B 00 or 00 7B).
  const bom = startsWith(head, 0xff, 0xfe) || startsWith(head, 0xfe, 0xff);
  const nuls = head.length >= 4 && ((head[1] === 0 && head[3] === 0) || (head[0] === 0 && head[2] === 0));
  if (bom || nuls) return 'is UTF-16 (or UTF-32) text, not UTF-8: save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8.jsonl), then load that';
  return null;
}

/** What a file whose lines were all rejected looks like instead, from its first non-blank line; null when it looks like JSON Lines. */
export function notJsonLines(firstLine: string | null): string | null {
  if (firstLine === null) return null;
  const line = firstLine.trim();
  if (line.startsWith('{')) {
    if (line.endsWith('}')) return null;
    return 'it looks like JSON written over several lines (pretty-printed); the app reads one JSON object per line (JSON Lines) or a JSON array of objects: write one object per line (e.g. jq -c . FILE > FILE.jsonl)';
  }
  if (line.startsWith('[')) return null;
  const what = line.includes('\t') ? 'TSV (tab-separated)' : line.includes(',') ? 'CSV (comma-separated)' : null;
  const read = 'the app reads JSON Lines (one JSON object per line) or a JSON array';
  if (what === null) return `it is not JSON: its first line is ${describeValue(line)}; ${read}`;
  return `it looks like ${what}, its first line ${describeValue(line)}; ${read}: convert it, e.g. pandas.read_csv(FILE${what.startsWith('TSV') ? ", sep='\\t'" : ''}).to_json(OUT, orient='records', lines=True)`;
}
