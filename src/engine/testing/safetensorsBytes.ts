/** Test helpers: safetensors bytes assembled by hand (not by our writer), so reader tests stand alone. */

/** `u64 LE length` · header text verbatim (no padding) · data. `lengthField` can lie about the length. */
export function rawFile(header: string | object, data: Uint8Array = new Uint8Array(0), lengthField?: number): Uint8Array<ArrayBuffer> {
  const json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  const n = lengthField ?? json.length;
  const dv = new DataView(out.buffer);
  dv.setUint32(0, n % 2 ** 32, true);
  dv.setUint32(4, Math.floor(n / 2 ** 32), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

/** Little-endian float32 bytes, written one by one with DataView (independent of the code under test). */
export function f32le(values: readonly number[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(4 * values.length);
  const dv = new DataView(out.buffer);
  values.forEach((v, i) => dv.setFloat32(4 * i, v, true));
  return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

/** Calls `fn`, expects a SafetensorsError-like throw, returns it for inspection. */
export function caught(fn: () => unknown): Error & { tensor?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error & { tensor?: string };
  }
  throw new Error('expected a throw, got none');
}
