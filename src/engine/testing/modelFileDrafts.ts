/**
 * Safetensors model files being mutated, for the verdicts test (io/modelFile.verdicts.test.ts): a draft of a
 * file (its header, data and edits), the helpers the mutations share, and the file's bytes built back.
 */
import { makeConfig } from '../model/config.ts';
import type { Rng } from '../shared/rng.ts';
import { rawFile } from './safetensorsBytes.ts';

/** The tiny model every file of the test is made from. */
export const TINY = makeConfig({ vocabSize: 11, dModel: 8, nHeads: 2, nLayers: 2, ffnDim: 12, clsId: 10, sepId: 9, padId: 10, maxLen: 16 });

export type Json = unknown;
export type Entry = Record<string, Json>;

/** A file being mutated: its header (insertion order kept), data section, and edits of the final text / bytes. */
export interface Draft {
  header: Record<string, Json>;
  data: Uint8Array;
  raws: string[];
  textEdits: Array<(text: string) => string>;
  byteEdits: Array<(bytes: Uint8Array) => Uint8Array>;
  lengthDelta?: number;
  what: string[];
}

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];

/** A JSON literal written verbatim (JSON.stringify cannot write `4.0`, `NaN`, `-0` or 3,000 nested arrays). */
export function raw(d: Draft, text: string): string {
  d.raws.push(text);
  return `@@RAW${d.raws.length - 1}@@`;
}

export const deep = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);
export const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
export const depthOf = (rng: Rng) => pick(rng, [900, 1_500, 3_000, 3_000, 20_000, 100_000]);

export function tensorNames(d: Draft): string[] {
  return Object.keys(d.header).filter((k) => k !== '__metadata__');
}
export function entries(d: Draft): Array<[string, Entry]> {
  return tensorNames(d)
    .map((n) => [n, d.header[n]] as [string, Json])
    .filter((e): e is [string, Entry] => typeof e[1] === 'object' && e[1] !== null && !Array.isArray(e[1]));
}
export function offsetsOf(e: Entry): [number, number] {
  const o = e.data_offsets;
  return Array.isArray(o) && typeof o[0] === 'number' && typeof o[1] === 'number' ? [o[0], o[1]] : [0, 0];
}
export function meta(d: Draft): Record<string, Json> | undefined {
  const m = d.header.__metadata__;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Record<string, Json>) : undefined;
}

export const CONFIG_TEXTS = (rng: Rng, d: Draft): string => {
  const c = { ...TINY } as Record<string, Json>;
  const [k, v] = pick(rng, [
    ['dModel', '8.0'],
    ['dModel', '8e0'],
    ['dModel', '"8"'],
    ['dModel', '8.5'],
    ['dModel', '1e400'],
    ['dModel', 'NaN'],
    ['dModel', 'true'],
    ['dModel', 'null'],
    ['nHeads', '3'],
    ['nHeads', '0'],
    ['nHeads', '-2'],
    ['nLayers', '1000000'],
    ['nLayers', '1'],
    ['nLayers', '3'],
    ['vocabSize', '2147483647'],
    ['vocabSize', '1048577'],
    ['vocabSize', '12'],
    ['clsId', '11'],
    ['clsId', '-0'],
    ['clsId', '10.5'],
    ['clsId', '-1'],
    ['padId', '1e1'],
    ['dropout', '1'],
    ['dropout', '-0.1'],
    ['dropout', '"0.2"'],
    ['dropout', '0'],
    ['dropout', '0.9999999999999999'],
    ['positional', '"learned"'],
    ['positional', '"other"'],
    ['positional', '5'],
    ['maxLen', '1'],
    ['maxLen', '65537'],
    ['maxLen', '16.000000000000001'],
    ['ffnDim', '24'],
    ['ffnDim', '65537'],
    ['extra', '1'],
    ['extra', deep(depthOf(rng))],
    ['extra', 'Infinity'],
    ['extra', '7'.repeat(5000)],
    ['__proto__', '{"dModel":16}'],
    ['dModel', '9007199254740993'],
  ] as const);
  d.what.push(`eorm_config ${k}=${v.slice(0, 20)}`);
  const parts = Object.entries(c)
    .filter(([key]) => key !== k)
    .map(([key, val]) => `${JSON.stringify(key)}:${JSON.stringify(val)}`);
  parts.splice(rng.int(parts.length + 1), 0, `${JSON.stringify(k)}:${v}`);
  // Sometimes only a few fields: the rest come from the shapes, the special ids and the defaults.
  if (rng.int(6) === 0) return `{${parts.filter(() => rng.int(2) === 0).join(',')}}`;
  return `{${parts.join(',')}}`;
};

export function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** A file's bytes; the header is written with the length field exact (unless a mutation lies) and no padding. */
export function build(d: Draft): Uint8Array {
  let text = JSON.stringify(d.header);
  text = text.replace(/"@@RAW(\d+)@@"/g, (_, k: string) => d.raws[Number(k)]);
  for (const edit of d.textEdits) text = edit(text);
  const length = new TextEncoder().encode(text).length;
  let bytes: Uint8Array = rawFile(text, d.data, d.lengthDelta === undefined ? undefined : Math.max(0, length + d.lengthDelta));
  for (const edit of d.byteEdits) bytes = edit(bytes);
  return bytes;
}

export function draft(file: Uint8Array): Draft {
  const n = new DataView(file.buffer, file.byteOffset).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + n))) as Record<string, Json>;
  return { header, data: file.slice(8 + n), raws: [], textEdits: [], byteEdits: [], what: [] };
}
