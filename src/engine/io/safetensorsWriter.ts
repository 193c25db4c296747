/**
 * Writes the safetensors format (see safetensors.ts). The writer's form is canonical and is the form of the
 * fixture files (and of the reference `safetensors` library): compact JSON, `__metadata__` first, tensors in
 * data order, header padded with spaces so the data starts at a multiple of 8. So read → write with the same
 * order and metadata gives the same bytes.
 */
import { encodeF16 } from './f16.ts';
import { type FloatDtype, LITTLE_ENDIAN_HOST, METADATA_KEY, SafetensorsError, fmtShape, isCount, numel } from './safetensors.ts';

export interface TensorToWrite {
  name: string;
  shape: readonly number[];
  data: Float32Array;
  /** Stored dtype, default F32. F16 rounds to nearest even (lossless only for float16-exact values). */
  dtype?: FloatDtype;
}

/**
 * Writes tensors in the given order, contiguous, little-endian, with `__metadata__` first (if given) in
 * its key order. Note: an F16 tensor with an odd element count puts later F32 tensors at addresses that
 * are not 4-byte aligned; they still read fine, by copy instead of view.
 */
export function writeSafetensors(tensors: Iterable<TensorToWrite>, metadata?: Record<string, string> | undefined): Uint8Array<ArrayBuffer> {
  const parts: string[] = [];
  if (metadata !== undefined) {
    const entries = Object.entries(metadata).map(([k, v]) => {
      if (typeof v !== 'string') throw new SafetensorsError(`Metadata "${k}" must be a string (got ${typeof v}); JSON.stringify it first.`);
      return `${JSON.stringify(k)}:${JSON.stringify(v)}`;
    });
    parts.push(`"${METADATA_KEY}":{${entries.join(',')}}`);
  }
  const payloads: Uint8Array[] = [];
  const seen = new Set<string>();
  let offset = 0;
  for (const t of tensors) {
    const dtype = t.dtype ?? 'F32';
    if (t.name === METADATA_KEY) throw new SafetensorsError(`"${METADATA_KEY}" is reserved and cannot name a tensor.`, t.name);
    if (seen.has(t.name)) throw new SafetensorsError(`Tensor "${t.name}" is given twice; names must be unique.`, t.name);
    seen.add(t.name);
    if (!t.shape.every(isCount)) throw new SafetensorsError(`Tensor "${t.name}": shape ${fmtShape(t.shape)} must be non-negative integers.`, t.name);
    if (!(t.data instanceof Float32Array)) throw new SafetensorsError(`Tensor "${t.name}": data must be a Float32Array.`, t.name);
    if (numel(t.shape) !== t.data.length) {
      throw new SafetensorsError(`Tensor "${t.name}": shape ${fmtShape(t.shape)} needs ${numel(t.shape)} values but ${t.data.length} were given.`, t.name);
    }
    if (dtype !== 'F32' && dtype !== 'F16') throw new SafetensorsError(`Tensor "${t.name}": cannot write dtype ${String(dtype)}; use F32 or F16.`, t.name);
    const payload = dtype === 'F16' ? encodeF16(t.data) : f32Bytes(t.data);
    parts.push(`${JSON.stringify(t.name)}:{"dtype":"${dtype}","shape":[${t.shape.join(',')}],"data_offsets":[${offset},${offset + payload.length}]}`);
    payloads.push(payload);
    offset += payload.length;
  }
  const json = new TextEncoder().encode(`{${parts.join(',')}}`);
  const padded = json.length + ((8 - (json.length % 8)) % 8); // 8 + padded is then a multiple of 8
  const out = new Uint8Array(8 + padded + offset);
  const view = new DataView(out.buffer);
  view.setUint32(0, padded % 2 ** 32, true);
  view.setUint32(4, Math.floor(padded / 2 ** 32), true);
  out.set(json, 8);
  out.fill(0x20, 8 + json.length, 8 + padded);
  let pos = 8 + padded;
  for (const p of payloads) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

/** Little-endian bytes of `data` (a view on little-endian hosts: it is copied into the file right after). */
function f32Bytes(data: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(data.byteLength);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < data.length; i++) dv.setFloat32(4 * i, data[i], true);
  return out;
}
