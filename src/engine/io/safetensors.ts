/**
 * The safetensors format, DOM-free (Web Worker and Node): `u64 LE N` · N bytes of JSON header · data.
 * Header: `{"__metadata__": {str: str}, "<name>": {"dtype", "shape", "data_offsets": [begin, end]}, ...}`,
 * offsets relative to the data section. We read F32 and F16 (as Float32Array); safetensorsWriter.ts writes
 * F32 / F16.
 */
import { decodeF16 } from './f16.ts';

/** A file (or write request) that does not fit the format; `tensor` names the tensor at fault, if any. */
export class SafetensorsError extends Error {
  override readonly name = 'SafetensorsError';
  readonly tensor: string | undefined;
  constructor(message: string, tensor?: string) {
    super(message);
    this.tensor = tensor;
  }
}

/** The dtypes this project converts to float32. */
export type FloatDtype = 'F32' | 'F16';
export const SUPPORTED_DTYPES: readonly FloatDtype[] = ['F32', 'F16'];

/** Bytes per element of the spec's dtypes, so the layout of any valid file can be checked (not only ours). */
const ITEM_SIZE = new Map<string, number>([
  ['BOOL', 1],
  ['U8', 1],
  ['I8', 1],
  ['F8_E5M2', 1],
  ['F8_E4M3', 1],
  ['I16', 2],
  ['U16', 2],
  ['F16', 2],
  ['BF16', 2],
  ['I32', 4],
  ['U32', 4],
  ['F32', 4],
  ['I64', 8],
  ['U64', 8],
  ['F64', 8],
]);

/** The reference implementation's limit; a longer "header" means the file is something else. */
export const MAX_HEADER_BYTES = 100_000_000;

export const METADATA_KEY = '__metadata__';
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** One header entry; `begin`/`end` are byte offsets into the data section. */
export interface TensorEntry {
  name: string;
  dtype: string;
  shape: number[];
  begin: number;
  end: number;
}

export interface SafetensorsHeader {
  /** In data order (by `begin`): the order the writer laid them out. */
  tensors: TensorEntry[];
  byName: Map<string, TensorEntry>;
  /** `__metadata__`, in header order; undefined when the file has none. */
  metadata: Record<string, string> | undefined;
  /** Absolute byte offset of the data section (8 + N). */
  dataStart: number;
  dataLength: number;
  /** Accepted oddities, e.g. unused bytes between tensors. */
  warnings: string[];
}

export interface Tensor {
  /** The dtype stored in the file; `data` is always float32. */
  dtype: FloatDtype;
  shape: number[];
  data: Float32Array;
}

export interface ReadOptions {
  /**
   * F32 tensors are views into the input's memory when it is little-endian-aligned (no copy): they then
   * change if the input bytes change, and die if its buffer is transferred. `copy: true` always copies.
   */
  copy?: boolean;
}

export function asBytes(input: Uint8Array | ArrayBuffer): Uint8Array {
  return input instanceof Uint8Array ? input : new Uint8Array(input);
}

export const fmtShape = (s: readonly number[]) => `[${s.join(', ')}]`;

/** Product of the dims, or NaN when it is not a safe integer (absurd shapes must not wrap around). */
export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return Number.isSafeInteger(n) ? n : NaN;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Parses and checks the header and the data layout; reads no tensor data. Throws SafetensorsError. */
export function parseHeader(input: Uint8Array | ArrayBuffer): SafetensorsHeader {
  const bytes = asBytes(input);
  const notST = 'Is this a .safetensors file (and was it downloaded completely)?';
  if (bytes.length < 8) {
    throw new SafetensorsError(`The file is ${bytes.length} bytes long, shorter than the 8-byte header length of a safetensors file. ${notST}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(4, true) * 2 ** 32 + view.getUint32(0, true);
  if (n > MAX_HEADER_BYTES) {
    throw new SafetensorsError(`The header length field says ${n} bytes, beyond any real safetensors header (limit ${MAX_HEADER_BYTES}). ${notST}`);
  }
  if (8 + n > bytes.length) {
    throw new SafetensorsError(`The header length field says ${n} bytes but only ${bytes.length - 8} follow it: the file is truncated. ${notST}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + n));
  } catch {
    throw new SafetensorsError(`The header is not valid UTF-8 text. ${notST}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SafetensorsError(`The header is not JSON (${(e as Error).message}). ${notST}`);
  }
  if (!isPlainObject(json)) throw new SafetensorsError(`The header is JSON but not an object of tensors. ${notST}`);
  // JSON allows leading whitespace and the decoder drops a BOM; the format (and the reference library) does not.
  if (bytes[8] !== 0x7b) {
    const what = bytes[8] === 0xef ? 'a UTF-8 byte-order mark' : `whitespace (byte 0x${bytes[8].toString(16).padStart(2, '0')})`;
    throw new SafetensorsError(`The header starts with ${what}; a safetensors header must begin with "{". Re-save the file with a safetensors library.`);
  }

  const dataStart = 8 + n;
  const dataLength = bytes.length - dataStart;
  const tensors: TensorEntry[] = [];
  let metadata: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(json)) {
    if (name === METADATA_KEY) metadata = checkMetadata(value);
    else tensors.push(checkEntry(name, value, dataLength));
  }
  const warnings = checkLayout(tensors, dataLength);
  return { tensors, byName: new Map(tensors.map((t) => [t.name, t])), metadata, dataStart, dataLength, warnings };
}

/** "a number", "an object", "null"… for messages about JSON values. */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function checkMetadata(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) throw new SafetensorsError('The header\'s "__metadata__" is not an object of strings; the file is malformed (re-save it).');
  // Null prototype: a key such as "__proto__" or "constructor" is plain data, never an inherited member.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string')
      throw new SafetensorsError(`"__metadata__.${k}" is ${kindOf(v)}; the format allows only string values (re-save the file with string metadata).`);
    out[k] = v;
  }
  return out;
}

function checkEntry(name: string, value: unknown, dataLength: number): TensorEntry {
  const bad = (what: string) => new SafetensorsError(`Tensor "${name}": ${what}. The file is malformed; re-export it.`, name);
  if (!isPlainObject(value)) throw bad('its header entry is not an object');
  const { dtype, shape, data_offsets: offsets } = value;
  if (dtype === undefined) throw bad('"dtype" is missing');
  if (typeof dtype !== 'string') throw bad('"dtype" is not a string');
  if (shape === undefined) throw bad('"shape" is missing');
  if (!Array.isArray(shape) || !shape.every(isCount)) throw bad('"shape" is not a list of non-negative integers');
  if (offsets === undefined) throw bad('"data_offsets" is missing');
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount))
    throw bad('"data_offsets" is not a pair of non-negative integers [begin, end]');
  const [begin, end] = offsets as [number, number];
  if (end < begin) throw bad(`data_offsets [${begin}, ${end}] end before they begin`);
  if (end > dataLength) throw bad(`data_offsets [${begin}, ${end}] reach past the end of the data (${dataLength} bytes); the file may be truncated`);
  const size = ITEM_SIZE.get(dtype);
  // Unknown dtypes cannot be size-checked here; reading one is refused (see tensorData).
  if (size !== undefined) {
    const count = numel(shape as number[]);
    if (!(count * size === end - begin)) {
      throw bad(
        `shape ${fmtShape(shape as number[])} × ${size} bytes (${dtype}) = ${count * size} bytes, but data_offsets [${begin}, ${end}] hold ${end - begin}`,
      );
    }
  }
  return { name, dtype, shape: shape as number[], begin, end };
}

/**
 * Sorts `tensors` into data order; overlapping tensors are refused (a view into one would alias another),
 * unused bytes are only reported: the spec asks for a gap-free layout, but the tensors themselves are intact.
 */
function checkLayout(tensors: TensorEntry[], dataLength: number): string[] {
  tensors.sort((a, b) => a.begin - b.begin || a.end - b.end);
  const warnings: string[] = [];
  let reach = 0;
  let last: TensorEntry | undefined;
  for (const t of tensors) {
    if (t.begin === t.end) continue; // empty tensors occupy nothing
    if (last && t.begin < reach) {
      throw new SafetensorsError(
        `Tensor "${t.name}" (bytes ${t.begin}..${t.end}) overlaps tensor "${last.name}" (bytes ${last.begin}..${last.end}); the file is malformed, re-export it.`,
        t.name,
      );
    }
    if (t.begin > reach) warnings.push(`${t.begin - reach} unused bytes before tensor "${t.name}" (the format expects none; the tensors are intact).`);
    reach = t.end;
    last = t;
  }
  if (reach < dataLength) warnings.push(`${dataLength - reach} unused bytes after the last tensor (the format expects none; the tensors are intact).`);
  return warnings;
}

/** Float32 values of one F32 or F16 tensor of a parsed file. Throws SafetensorsError for other dtypes. */
export function tensorData(input: Uint8Array | ArrayBuffer, header: SafetensorsHeader, entry: TensorEntry, opts: ReadOptions = {}): Float32Array {
  checkReadable(entry);
  const bytes = asBytes(input);
  const src = bytes.subarray(header.dataStart + entry.begin, header.dataStart + entry.end);
  if (entry.dtype === 'F16') return decodeF16(src);
  const count = src.length / 4;
  const abs = src.byteOffset;
  const shared = typeof SharedArrayBuffer !== 'undefined' && src.buffer instanceof SharedArrayBuffer;
  // A view is only possible at a 4-byte-aligned address on a little-endian host; shared memory is always
  // copied because another thread could change it under us. The view spans exactly this tensor.
  if (!opts.copy && !shared && LITTLE_ENDIAN_HOST && abs % 4 === 0) return new Float32Array(src.buffer, abs, count);
  const out = new Float32Array(count);
  if (LITTLE_ENDIAN_HOST) {
    new Uint8Array(out.buffer).set(src);
  } else {
    const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
    for (let i = 0; i < count; i++) out[i] = dv.getFloat32(4 * i, true);
  }
  return out;
}

function checkReadable(entry: TensorEntry): void {
  if (entry.dtype !== 'F32' && entry.dtype !== 'F16') {
    throw new SafetensorsError(
      `Tensor "${entry.name}" is stored as ${entry.dtype}; only ${SUPPORTED_DTYPES.join(' and ')} are supported. ` +
        'Convert the checkpoint to float32 before saving (in PyTorch: {k: v.float() for k, v in sd.items()}).',
      entry.name,
    );
  }
}

export interface SafetensorsFile {
  /** Every tensor, in data order. */
  tensors: Map<string, Tensor>;
  metadata: Record<string, string> | undefined;
  warnings: string[];
}

/** Reads a whole file; every tensor must be F32 or F16 (checked before anything is converted). */
export function readSafetensors(input: Uint8Array | ArrayBuffer, opts: ReadOptions = {}): SafetensorsFile {
  const header = parseHeader(input);
  header.tensors.forEach(checkReadable);
  const tensors = new Map<string, Tensor>();
  for (const e of header.tensors) {
    tensors.set(e.name, { dtype: e.dtype as FloatDtype, shape: [...e.shape], data: tensorData(input, header, e, opts) });
  }
  return { tensors, metadata: header.metadata, warnings: header.warnings };
}
