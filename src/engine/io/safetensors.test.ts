import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDir } from '../testing/fixtureDir.ts';
import { MAX_HEADER_BYTES, parseHeader, readSafetensors, SafetensorsError, tensorData } from './safetensors.ts';
import { writeSafetensors } from './safetensorsWriter.ts';
import { caught, concat, f32le, rawFile } from '../testing/safetensorsBytes.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(resolve(fixtureDir(), name)));
const refConfig = () =>
  JSON.parse(readFileSync(resolve(fixtureDir(), 'config.json'), 'utf8')) as {
    state_dict: { names_in_order: string[]; shapes: Record<string, number[]> };
  };

/** Writes back what was read, same order, dtypes and metadata. */
function rewrite(bytes: Uint8Array): Uint8Array {
  const f = readSafetensors(bytes);
  return writeSafetensors(
    [...f.tensors].map(([name, t]) => ({ name, ...t })),
    f.metadata,
  );
}

function expectSameBytes(a: Uint8Array, b: Uint8Array) {
  expect(a.length).toBe(b.length);
  const i = a.findIndex((x, k) => x !== b[k]);
  expect(i, `first differing byte at ${i}`).toBe(-1);
}

describe('fixture files', () => {
  it('weights.safetensors: read → write reproduces the file byte for byte', () => {
    const bytes = fixture('weights.safetensors');
    const f = readSafetensors(bytes);
    expect(f.warnings).toEqual([]);
    const ref = refConfig().state_dict;
    expect(new Set(f.tensors.keys())).toEqual(new Set(ref.names_in_order));
    for (const [name, t] of f.tensors) expect(t.shape, name).toEqual(ref.shapes[name]);
    expect(f.metadata?.format).toBe('pt');
    expectSameBytes(rewrite(bytes), bytes);
  });

  it('expected.safetensors (many tensors, padded header) parses and round-trips byte for byte', () => {
    const bytes = fixture('expected.safetensors');
    const f = readSafetensors(bytes);
    const ref = refConfig().state_dict;
    for (const p of ['grad.', 'step1.', 'step2.', 'clip.step1.', 'clip.step2.']) {
      for (const name of ref.names_in_order) {
        const t = f.tensors.get(p + name);
        expect(t, p + name).toBeDefined();
        if (name !== 'emb.weight') expect(t!.shape).toEqual(ref.shapes[name]);
      }
    }
    expect([...f.tensors.keys()].some((n) => n.startsWith('inter.g0.'))).toBe(true);
    expectSameBytes(rewrite(bytes), bytes);
  });

  it('F32 tensors are views into the input (no copy); copy: true gives independent arrays', () => {
    const bytes = fixture('weights.safetensors');
    const view = readSafetensors(bytes).tensors.get('head.3.bias')!.data;
    expect(view.buffer).toBe(bytes.buffer);
    expect(view.length).toBe(1);
    const copy = readSafetensors(bytes, { copy: true }).tensors.get('head.3.bias')!.data;
    expect(copy.buffer).not.toBe(bytes.buffer);
    expect(copy[0]).toBe(view[0]);
  });
});

describe('writer', () => {
  it('emits compact canonical JSON, metadata first, space-padded to a multiple of 8', () => {
    const out = writeSafetensors([{ name: 'x', shape: [2], data: new Float32Array([1, -2]) }], { a: 'b' });
    const header = '{"__metadata__":{"a":"b"},"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}';
    const padded = header + ' '.repeat((8 - (header.length % 8)) % 8);
    expect(new DataView(out.buffer).getUint32(0, true)).toBe(padded.length);
    expect(new TextDecoder().decode(out.subarray(8, 8 + padded.length))).toBe(padded);
    expect([...out.subarray(8 + padded.length)]).toEqual([...f32le([1, -2])]);
  });

  it('puts the data at a multiple of 8 whatever the header length', () => {
    for (let k = 0; k < 16; k++) {
      const out = writeSafetensors([{ name: 'n'.repeat(k + 1), shape: [1], data: new Float32Array([k]) }]);
      const n = new DataView(out.buffer).getUint32(0, true);
      expect((8 + n) % 8).toBe(0);
      expect(parseHeader(out).metadata).toBeUndefined();
      expect(readSafetensors(out).tensors.get('n'.repeat(k + 1))!.data[0]).toBe(k);
    }
  });

  it('round-trips order, scalars, empty tensors, unicode names/metadata, F16, NaN and ±inf', () => {
    const weird = new Float32Array([NaN, Infinity, -Infinity, -0, 1e-45, 3.4e38]);
    const tensors = [
      { name: 'z.last-first', shape: [2, 3], data: weird },
      { name: 'scalar', shape: [], data: new Float32Array([42]) },
      { name: 'empty', shape: [0, 3], data: new Float32Array(0) },
      { name: 'half', shape: [3], data: new Float32Array([1, -2, 65504]), dtype: 'F16' as const },
      { name: 'ünï "quoted" 名', shape: [1], data: new Float32Array([5]) },
      { name: 'after.half', shape: [2], data: new Float32Array([0.1, 0.2]) },
    ];
    const meta = { clé: 'välue ✓', json: '{"a": [1, 2]}', empty: '' };
    const out = writeSafetensors(tensors, meta);
    const f = readSafetensors(out);
    expect([...f.tensors.keys()]).toEqual(tensors.map((t) => t.name));
    for (const t of tensors) {
      const r = f.tensors.get(t.name)!;
      expect(r.shape).toEqual(t.shape);
      expect(r.dtype).toBe(t.dtype ?? 'F32');
      expect([...r.data]).toEqual([...t.data]); // toEqual: NaN equals NaN, -0 is distinguished
    }
    expect({ ...f.metadata }).toEqual(meta);
    expect(f.warnings).toEqual([]);
    expectSameBytes(rewrite(out), out);
  });

  it('refuses bad write requests', () => {
    const d = new Float32Array([1, 2]);
    expect(caught(() => writeSafetensors([{ name: 'a', shape: [3], data: d }])).message).toMatch(/needs 3 values but 2/);
    expect(
      caught(() =>
        writeSafetensors([
          { name: 'a', shape: [2], data: d },
          { name: 'a', shape: [2], data: d },
        ]),
      ).tensor,
    ).toBe('a');
    expect(caught(() => writeSafetensors([{ name: '__metadata__', shape: [2], data: d }])).message).toMatch(/reserved/);
    expect(caught(() => writeSafetensors([{ name: 'a', shape: [-2], data: d }])).message).toMatch(/non-negative integers/);
    expect(caught(() => writeSafetensors([], { n: 3 as unknown as string })).message).toMatch(/must be a string/);
  });
});

describe('reader: views and alignment', () => {
  it('reads F32 data that is not 4-byte aligned (by copy) and views bounded to each tensor', () => {
    // Header of odd length, no padding: data starts at an odd address.
    const header = '{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}} ';
    expect((8 + header.length) % 4).toBe(1);
    const f = readSafetensors(rawFile(header, f32le([1.5, -2, 3])));
    expect([...f.tensors.get('a')!.data]).toEqual([1.5, -2]);
    expect([...f.tensors.get('b')!.data]).toEqual([3]);

    // Aligned, but the input is a Uint8Array at an odd offset inside a bigger buffer (e.g. a pooled Node Buffer).
    const file = writeSafetensors([
      { name: 'a', shape: [2], data: new Float32Array([1, 2]) },
      { name: 'b', shape: [1], data: new Float32Array([3]) },
    ]);
    const big = new Uint8Array(file.length + 3);
    big.set(file, 3);
    const g = readSafetensors(big.subarray(3));
    expect([...g.tensors.get('a')!.data]).toEqual([1, 2]);

    // Aligned views: writing into one tensor does not touch its neighbour.
    const h = readSafetensors(file);
    const a = h.tensors.get('a')!.data;
    expect(a.length).toBe(2);
    a[1] = 99;
    expect(h.tensors.get('b')!.data[0]).toBe(3);
  });

  it('tensorData reads one tensor from a parsed header, accepts an ArrayBuffer', () => {
    const file = writeSafetensors([{ name: 'a', shape: [1], data: new Float32Array([7]) }]);
    const header = parseHeader(file.buffer);
    expect([...tensorData(file.buffer, header, header.byName.get('a')!)]).toEqual([7]);
  });
});

describe('reader: refuses malformed files with a SafetensorsError naming the problem', () => {
  const entry = (o: object) => ({ t: { dtype: 'F32', shape: [2], data_offsets: [0, 8], ...o } });
  const refuse = (bytes: Uint8Array, msg: RegExp, tensor?: string) => {
    const e = caught(() => readSafetensors(bytes));
    expect(e).toBeInstanceOf(SafetensorsError);
    expect(e.name).toBe('SafetensorsError');
    expect(e.message).toMatch(msg);
    expect(e.tensor).toBe(tensor);
  };

  it('file shorter than 8 bytes', () => {
    refuse(new Uint8Array(5), /5 bytes long, shorter than the 8-byte/);
    refuse(new Uint8Array(0), /0 bytes long/);
  });

  it('header length beyond the file, or absurd', () => {
    refuse(rawFile('{}', new Uint8Array(0), 40), /says 40 bytes but only 2 follow.*truncated/);
    refuse(rawFile('{}', new Uint8Array(0), MAX_HEADER_BYTES + 1), /beyond any real safetensors header/);
    refuse(rawFile('{}', new Uint8Array(0), 2 ** 40), /beyond any real/);
    refuse(new TextEncoder().encode('\x89PNG\r\n\x1a\n rest of a picture'), /beyond any real/);
  });

  it('header not UTF-8, not JSON, not an object', () => {
    refuse(rawFile('', concat(new Uint8Array([0x7b, 0xff, 0x7d]))), /not JSON/); // empty header
    const bad = rawFile('{}');
    bad[9] = 0xff;
    refuse(bad, /not valid UTF-8/);
    refuse(rawFile('{"a": '), /not JSON/);
    refuse(rawFile('[1, 2]'), /not an object/);
    refuse(rawFile('null'), /not an object/);
    refuse(rawFile('42'), /not an object/);
  });

  it('a header that does not start with "{" (a BOM or whitespace first), as the reference library refuses it', () => {
    refuse(rawFile('\uFEFF{}'), /starts with a UTF-8 byte-order mark.*must begin with "\{"/);
    refuse(rawFile(' {}'), /starts with whitespace \(byte 0x20\).*must begin with "\{"/);
    refuse(rawFile('\n{}'), /starts with whitespace \(byte 0x0a\)/);
    // Trailing spaces are the format's padding and stay allowed.
    expect(readSafetensors(rawFile('{}   ')).tensors.size).toBe(0);
  });

  it('bad __metadata__', () => {
    refuse(rawFile({ __metadata__: ['x'] }), /"__metadata__" is not an object/);
    refuse(rawFile({ __metadata__: { n: 3 } }), /"__metadata__.n" is a number/);
    refuse(rawFile({ __metadata__: { n: { a: '1' } } }), /"__metadata__.n" is an object;/);
    refuse(rawFile({ __metadata__: { n: null } }), /"__metadata__.n" is null;/);
    refuse(rawFile({ __metadata__: { n: ['1'] } }), /"__metadata__.n" is an array;/);
  });

  it('entry missing dtype / shape / data_offsets, or with wrong types', () => {
    const data = f32le([1, 2]);
    refuse(rawFile({ t: [1] }, data), /Tensor "t": its header entry is not an object/, 't');
    refuse(rawFile({ t: { shape: [2], data_offsets: [0, 8] } }, data), /"dtype" is missing/, 't');
    refuse(rawFile(entry({ dtype: 32 }), data), /"dtype" is not a string/, 't');
    refuse(rawFile({ t: { dtype: 'F32', data_offsets: [0, 8] } }, data), /"shape" is missing/, 't');
    refuse(rawFile(entry({ shape: '2' }), data), /"shape" is not a list/, 't');
    refuse(rawFile(entry({ shape: [2.5] }), data), /"shape" is not a list/, 't');
    refuse(rawFile(entry({ shape: [-2] }), data), /"shape" is not a list/, 't');
    refuse(rawFile({ t: { dtype: 'F32', shape: [2] } }, data), /"data_offsets" is missing/, 't');
    refuse(rawFile(entry({ data_offsets: [0] }), data), /"data_offsets" is not a pair/, 't');
    refuse(rawFile(entry({ data_offsets: ['0', '8'] }), data), /"data_offsets" is not a pair/, 't');
  });

  it('unsupported dtype: named, and F32/F16 given as the supported ones', () => {
    const file = rawFile({ t: { dtype: 'BF16', shape: [2], data_offsets: [0, 4] } }, new Uint8Array(4));
    expect(parseHeader(file).tensors[0].dtype).toBe('BF16'); // the layout itself is valid
    refuse(file, /"t" is stored as BF16; only F32 and F16 are supported/, 't');
    refuse(rawFile({ t: { dtype: 'float32', shape: [1], data_offsets: [0, 4] } }, new Uint8Array(4)), /stored as float32/, 't');
  });

  it('offsets out of range, end before begin, byte length ≠ numel × itemsize', () => {
    refuse(rawFile(entry({ data_offsets: [0, 12] }), f32le([1, 2])), /reach past the end of the data \(8 bytes\)/, 't');
    refuse(rawFile(entry({ shape: [0], data_offsets: [8, 4] }), f32le([1, 2])), /end before they begin/, 't');
    refuse(rawFile(entry({ shape: [3] }), f32le([1, 2])), /shape \[3\] × 4 bytes \(F32\) = 12 bytes, but data_offsets \[0, 8\] hold 8/, 't');
    refuse(rawFile(entry({ dtype: 'F16' }), f32le([1, 2])), /= 4 bytes, but .* hold 8/, 't');
    refuse(rawFile(entry({ shape: [2 ** 40, 2 ** 40] }), f32le([1, 2])), /hold 8/, 't');
  });

  it('overlapping tensors, naming both', () => {
    const h = {
      a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
      b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] },
    };
    refuse(rawFile(h, f32le([1, 2, 3])), /"b" \(bytes 4\.\.12\) overlaps tensor "a" \(bytes 0\.\.8\)/, 'b');
    const nested = { a: { dtype: 'F32', shape: [3], data_offsets: [0, 12] }, b: { dtype: 'F32', shape: [1], data_offsets: [4, 8] } };
    refuse(rawFile(nested, f32le([1, 2, 3])), /overlaps/, 'b');
  });

  it('nothing is returned when one tensor of many is bad', () => {
    const h = { good: { dtype: 'F32', shape: [1], data_offsets: [0, 4] }, bad: { dtype: 'I64', shape: [1], data_offsets: [4, 12] } };
    refuse(rawFile(h, concat(f32le([1]), new Uint8Array(8))), /"bad" is stored as I64/, 'bad');
  });
});

describe('reader: accepted oddities', () => {
  it('holes and trailing bytes are accepted with a warning; tensors read correctly', () => {
    const h = {
      b: { dtype: 'F32', shape: [1], data_offsets: [12, 16] },
      a: { dtype: 'F32', shape: [1], data_offsets: [4, 8] },
      empty: { dtype: 'F32', shape: [0], data_offsets: [2, 2] },
    };
    const f = readSafetensors(rawFile(h, f32le([0, 1, 0, 2, 0])));
    expect([...f.tensors.keys()]).toEqual(['empty', 'a', 'b']); // data order, not header order
    expect(f.tensors.get('a')!.data[0]).toBe(1);
    expect(f.tensors.get('b')!.data[0]).toBe(2);
    expect(f.tensors.get('empty')!.data.length).toBe(0);
    expect(f.warnings).toEqual([
      '4 unused bytes before tensor "a" (the format expects none; the tensors are intact).',
      '4 unused bytes before tensor "b" (the format expects none; the tensors are intact).',
      '4 unused bytes after the last tensor (the format expects none; the tensors are intact).',
    ]);
  });

  it('an empty file ({} header) and metadata keys such as "__proto__" are plain data', () => {
    expect(readSafetensors(rawFile('{}')).tensors.size).toBe(0);
    const f = readSafetensors(rawFile('{"__metadata__":{"__proto__":"x","constructor":"y"}}'));
    expect(f.metadata!['__proto__']).toBe('x');
    expect(Object.keys(f.metadata!)).toEqual(['__proto__', 'constructor']);
  });
});
