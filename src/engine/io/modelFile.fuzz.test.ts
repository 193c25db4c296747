/**
 * Fuzzing the model import with seeded mutations of a valid model file: every mutation that breaks the
 * format or the model must be refused by readModel with a SafetensorsError whose message names the
 * tensor or the field at fault, before anything is built (readModel returns nothing, the input bytes are
 * not written, and a model read earlier is unchanged). The worker replaces its model only after
 * readModel (and paramsFromArrays) succeed, so a refusal here leaves the model in use untouched.
 */
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../shared/rng.ts';
import { makeConfig, paramShapes } from '../model/config.ts';
import { type LoadedModel, readModel, writeModel } from './modelFile.ts';
import { MAX_HEADER_BYTES, numel, SafetensorsError } from './safetensors.ts';
import { caught, f32le, rawFile } from '../testing/safetensorsBytes.ts';

const TINY = makeConfig({ vocabSize: 11, dModel: 8, nHeads: 2, nLayers: 2, ffnDim: 12, clsId: 10, sepId: 9, padId: 10, maxLen: 16 });
const NAMES = paramShapes(TINY).map(([n]) => n);

function baseFile(f16: readonly string[]): Uint8Array<ArrayBuffer> {
  const tensors = new Map(
    paramShapes(TINY).map(([name, shape], k) => [name, Float32Array.from({ length: numel(shape) }, (_, i) => (((i * 7 + k * 13) % 61) - 30) / 64)]),
  );
  return writeModel({ cfg: TINY, tensors, metadata: { tokenizer: 'r50k_base', training: { steps: 3 } }, f16 });
}

interface Entry {
  dtype: unknown;
  shape: unknown;
  data_offsets: unknown;
}
type Header = Record<string, unknown> & { __metadata__: Record<string, unknown> };

/** A valid file taken apart: its header as JSON (to edit) and its data section. */
function split(file: Uint8Array) {
  const n = new DataView(file.buffer, file.byteOffset).getUint32(0, true);
  const text = new TextDecoder().decode(file.subarray(8, 8 + n));
  return { header: JSON.parse(text) as Header, data: file.slice(8 + n), jsonLength: text.trimEnd().length };
}

interface Mutation {
  what: string;
  bytes: Uint8Array;
  /** The message must match; it must also quote `tensor` when given, and the error carry it. */
  message: RegExp;
  tensor?: string | readonly string[];
  rejectExtra?: boolean;
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];
const entryOf = (h: Header, name: string) => h[name] as Entry;
const offsets = (h: Header, name: string) => entryOf(h, name).data_offsets as [number, number];
const clone = (h: Header): Header => structuredClone(h);
const nonEmpty = (h: Header) => NAMES.filter((n) => offsets(h, n)[1] > offsets(h, n)[0]);

/** Each mutation of one valid file (header, data, whole bytes) and the refusal it must get. */
const MUTATIONS: ReadonlyArray<(rng: Rng, base: ReturnType<typeof split>, file: Uint8Array) => Mutation> = [
  (rng, { header, data }) => {
    const real = JSON.stringify(header).length;
    const lie = real + 1 + data.length + rng.int(1_000_000);
    return {
      what: 'header length beyond the file',
      bytes: rawFile(header, data, lie),
      message: new RegExp(`says ${lie} bytes but only \\d+ follow it: the file is truncated`),
    };
  },
  (rng, { header, data }) => {
    const lie = MAX_HEADER_BYTES + 1 + rng.int(2 ** 40);
    return { what: 'absurd header length', bytes: rawFile(header, data, lie), message: /beyond any real safetensors header \(limit 100000000\)/ };
  },
  (rng, { header, data, jsonLength }) => ({
    what: 'header length cutting the JSON',
    bytes: rawFile(header, data, rng.int(jsonLength)),
    message: /The header is not JSON|not valid UTF-8|not an object|must begin with "\{"/,
  }),
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    const [b] = offsets(h, name);
    entryOf(h, name).data_offsets = pick(rng, [
      [b, data.length + 1 + rng.int(100)],
      [data.length + 4, data.length + 4 + 4 * rng.int(8)],
    ]);
    return { what: 'data_offsets out of range', bytes: rawFile(h, data), message: /data_offsets \[\d+, \d+\] reach past the end of the data/, tensor: name };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, nonEmpty(h));
    const [b, e] = offsets(h, name);
    entryOf(h, name).data_offsets = [e, b];
    return { what: 'data_offsets ending before they begin', bytes: rawFile(h, data), message: /end before they begin/, tensor: name };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    entryOf(h, name).data_offsets = pick(rng, [[0], [0, 4, 8], ['0', '4'], [-4, 0], [1.5, 4], null, 'x']);
    return { what: 'data_offsets not a pair', bytes: rawFile(h, data), message: /"data_offsets" is (not a pair|missing)/, tensor: name };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const names = nonEmpty(h);
    const k = 1 + rng.int(names.length - 1);
    const [prev, name] = [names[k - 1], names[k]];
    const [b, e] = offsets(h, name);
    // Moved back into its predecessor (by at most the predecessor's length, so offsets stay non-negative).
    const back = 1 + rng.int(offsets(h, prev)[1] - offsets(h, prev)[0]);
    entryOf(h, name).data_offsets = [b - back, e - back];
    return {
      what: 'overlapping tensors',
      bytes: rawFile(h, data),
      message: /\(bytes \d+\.\.\d+\) overlaps tensor ".*" \(bytes \d+\.\.\d+\)/,
      tensor: [prev, name],
    };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    const shape = [...(entryOf(h, name).shape as number[])];
    const edit = rng.int(3);
    if (edit === 0) shape[rng.int(shape.length)] += 1 + rng.int(3);
    else if (edit === 1) shape.push(2 + rng.int(3));
    else shape.splice(0, shape.length, numel(shape) + 1);
    entryOf(h, name).shape = shape;
    return {
      what: 'shape not matching the bytes',
      bytes: rawFile(h, data),
      message: /shape \[[\d, ]*\] × \d bytes \(F(32|16)\) = \d+ bytes, but data_offsets/,
      tensor: name,
    };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(
      rng,
      NAMES.filter((n) => (entryOf(h, n).shape as number[]).length === 2),
    );
    const [r, c] = entryOf(h, name).shape as number[];
    entryOf(h, name).shape = r === c ? [r * c] : pick(rng, [[c, r], [r * c], [1, r, c]]);
    return {
      what: 'shape disagreeing with the config',
      bytes: rawFile(h, data),
      message: /has shape \[[\d, ]*\] but the config .* needs \[[\d, ]*\]/,
      tensor: name,
    };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    const size = (entryOf(h, name).dtype === 'F16' ? 2 : 4) === 4;
    entryOf(h, name).dtype = pick(rng, size ? ['Q4', 'float32', 'F31', '', 'I32', 'U32'] : ['Q4', 'half', 'BF16', 'I16']);
    return { what: 'unsupported or unknown dtype', bytes: rawFile(h, data), message: /is stored as .*; only F32 and F16 are supported/, tensor: name };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    entryOf(h, name).dtype = pick(rng, [32, null, ['F32'], undefined]);
    return { what: 'dtype not a string', bytes: rawFile(h, data), message: /"dtype" is (not a string|missing)/, tensor: name };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    h[name] = pick(rng, [[1], 'F32', 7, null]);
    return { what: 'tensor entry not an object', bytes: rawFile(h, data), message: /its header entry is not an object/, tensor: name };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    delete h[name];
    return {
      what: 'missing tensor',
      bytes: rawFile(h, data),
      message: new RegExp(`Tensor "${name.replace(/\./g, '\\.')}" \\(shape \\[[\\d, ]*\\]\\) is missing`),
      tensor: name,
    };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, ['enc.norm.weight', 'enc.layers.2.linear1.weight', 'module.emb.weight', 'head.2.weight']);
    h[name] = { dtype: 'F32', shape: [2], data_offsets: [data.length, data.length + 8] };
    const bytes = rawFile(h, new Uint8Array([...data, ...f32le([1, 2])]));
    return {
      what: 'extra tensor (with rejectExtra)',
      bytes,
      message: /does not use: ".*"\. Remove them or load with the matching config/,
      tensor: name,
      rejectExtra: true,
    };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const [field, value, tensor] = pick(rng, [
      ['dModel', 16, 'emb.weight'],
      ['vocabSize', 12, 'emb.weight'],
      ['nLayers', 3, 'enc.layers.2.self_attn.in_proj_weight'],
      ['ffnDim', 24, 'enc.layers.0.linear1.weight'],
      ['positional', 'learned', 'pos.weight'],
    ] as const);
    h.__metadata__.eorm_config = JSON.stringify({ ...TINY, [field]: value });
    return {
      what: `config ${field} ${value} against the tensors`,
      bytes: rawFile(h, data),
      message: /is missing for the config|has shape \[[\d, ]*\] but the config/,
      tensor,
    };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const [text, message] = pick(rng, [
      ['{not json', /"eorm_config"\) is not a JSON object/],
      ['[1]', /"eorm_config"\) is not a JSON object/],
      [JSON.stringify({ ...TINY, dModel: '8' }), /config field "dModel" is "8", not a number/],
      [JSON.stringify({ ...TINY, nHeads: 3 }), /dModel \(8\) must be divisible by nHeads \(3\)/],
      [JSON.stringify({ ...TINY, nLayers: 1_000_000 }), /nLayers must be at most 1024 \(got 1000000\)/],
      [JSON.stringify({ ...TINY, vocabSize: 2 ** 31 - 1 }), /vocabSize must be at most 1048576/],
      [JSON.stringify({ ...TINY, clsId: 11 }), /clsId must be a token id below vocabSize/],
    ] as const);
    h.__metadata__.eorm_config = text;
    return { what: 'bad config in the metadata', bytes: rawFile(h, data), message };
  },
  (rng, { header, data }) => {
    const h = clone(header) as Record<string, unknown>;
    const [value, message] = pick(rng, [
      [[], /"__metadata__" is not an object of strings/],
      ['x', /"__metadata__" is not an object of strings/],
      [5, /"__metadata__" is not an object of strings/],
      [null, /"__metadata__" is not an object of strings/],
      [{ ...(h.__metadata__ as object), eorm_config: { ...TINY } }, /"__metadata__\.eorm_config" is an object; the format allows only string values/],
      [{ ...(h.__metadata__ as object), steps: 3 }, /"__metadata__\.steps" is a number;/],
      [{ ...(h.__metadata__ as object), ok: true }, /"__metadata__\.ok" is a boolean;/],
      [{ ...(h.__metadata__ as object), none: null }, /"__metadata__\.none" is null;/],
    ] as const);
    h.__metadata__ = value;
    return { what: 'metadata not a string map', bytes: rawFile(h, data), message };
  },
  (rng, { header, data }) => {
    const text = JSON.stringify(header);
    return pick(rng, [
      {
        what: 'BOM before the header',
        bytes: rawFile(`\uFEFF${text}`, data),
        message: /starts with a UTF-8 byte-order mark; a safetensors header must begin with "\{"/,
      },
      { what: 'space before the header', bytes: rawFile(` ${text}`, data), message: /starts with whitespace \(byte 0x20\)/ },
      {
        what: 'header not an object',
        bytes: rawFile(pick(rng, ['[]', '42', 'null', '"x"']), data),
        message: /The header is JSON but not an object of tensors/,
      },
    ]);
  },
  (rng, { header, data }) => {
    const file = rawFile(header, data);
    file[8 + 1 + rng.int(JSON.stringify(header).length - 2)] = pick(rng, [0xff, 0xc3, 0xed]);
    return { what: 'header not UTF-8', bytes: file, message: /The header is not valid UTF-8 text|not JSON/ };
  },
  (rng, _base, file) => {
    const at = rng.int(file.length);
    const message =
      at < 8
        ? /shorter than the 8-byte header length/
        : /header length field says \d+ bytes but only \d+ follow|reach past the end of the data \(\d+ bytes\); the file may be truncated/;
    return { what: 'truncated file', bytes: file.slice(0, at), message };
  },
  (rng, { header, data }) => {
    const h = clone(header);
    const name = pick(rng, NAMES);
    const [b, e] = offsets(h, name);
    const f16 = entryOf(h, name).dtype === 'F16';
    const at = b + (f16 ? 2 : 4) * rng.int((e - b) / (f16 ? 2 : 4));
    const bad = data.slice();
    const dv = new DataView(bad.buffer);
    const value = pick(rng, [NaN, Infinity, -Infinity]);
    // NaN with a random payload, or an infinity; F16 tensors get the float16 bit patterns.
    if (f16) dv.setUint16(at, Number.isNaN(value) ? 0x7c01 + rng.int(0x3ff) : value > 0 ? 0x7c00 : 0xfc00, true);
    else if (Number.isNaN(value)) dv.setUint32(at, 0x7f800001 + rng.int(0x7fffff), true);
    else dv.setFloat32(at, value, true);
    return {
      what: 'NaN/Inf weight',
      bytes: rawFile(h, bad),
      message: /has 1 NaN\/infinite value\(s\) \(the first at index \d+: (NaN|-?Infinity)\)/,
      tensor: name,
    };
  },
];

function expectRefused(m: Mutation): void {
  const before = m.bytes.slice();
  let loaded: unknown;
  const e = caught(() => {
    loaded = readModel(m.bytes, { rejectExtra: m.rejectExtra });
  });
  expect(loaded, m.what).toBeUndefined();
  expect(e, `${m.what}: ${e.message}`).toBeInstanceOf(SafetensorsError);
  expect(e.message, m.what).toMatch(m.message);
  expect(e.message.length, m.what).toBeLessThan(600);
  if (m.tensor !== undefined) {
    const names = typeof m.tensor === 'string' ? [m.tensor] : m.tensor;
    expect(names, `${m.what}: ${e.message}`).toContain(e.tensor);
    expect(e.message).toContain(`"${e.tensor}"`);
  }
  // readModel never writes into its input.
  expect(m.bytes.length === before.length && m.bytes.every((b, i) => b === before[i]), m.what).toBe(true);
}

describe('model file fuzz (seeded)', () => {
  it('refuses each of ≥ 1,000 mutated files, naming the tensor or field, and touches nothing', () => {
    const rng = createRng(1_234_567);
    const bases = [baseFile([]), baseFile(['emb.weight', 'enc.layers.1.linear2.weight', 'head.3.bias'])];
    const inUse = bases.map((b) => readModel(b, { copy: true }));
    const snapshot = inUse.map((m) => new Map([...m.tensors].map(([n, t]) => [n, t.slice()])));
    const tally = new Map<string, number>();
    const used = new Set<number>();
    let files = 0;
    for (; files < 1_500; files++) {
      const file = pick(rng, bases);
      const k = rng.int(MUTATIONS.length);
      const m = MUTATIONS[k](rng, split(file), file);
      expectRefused(m);
      used.add(k);
      tally.set(m.what, (tally.get(m.what) ?? 0) + 1);
    }
    // Both bases still read as before, and the models read from them first are unchanged.
    bases.forEach((b, k) => {
      expect(readModel(b).tensors).toEqual(snapshot[k]);
      expect(inUse[k].tensors).toEqual(snapshot[k]);
    });
    expect(used.size).toBe(MUTATIONS.length);
    console.info(`model file fuzz: ${files} mutated files refused; by mutation: ${JSON.stringify(Object.fromEntries(tally))}`);
  });

  it('random byte flips anywhere: a SafetensorsError, or a model whose tensors fit the config and are finite', () => {
    const rng = createRng(99);
    const base = baseFile(['emb.weight']);
    let refused = 0;
    let loaded = 0;
    for (let k = 0; k < 500; k++) {
      const bytes = base.slice();
      for (let f = 1 + rng.int(3); f > 0; f--) bytes[rng.int(bytes.length)] = rng.int(256);
      let m: LoadedModel | undefined;
      let error: unknown;
      try {
        m = readModel(bytes);
      } catch (e) {
        error = e;
      }
      if (m === undefined) {
        expect(error, String(error)).toBeInstanceOf(SafetensorsError);
        refused++;
        continue;
      }
      for (const [name, shape] of paramShapes(m.cfg)) {
        const t = m.tensors.get(name)!;
        expect(t.length, name).toBe(numel(shape));
        expect(t.every(Number.isFinite), name).toBe(true);
      }
      loaded++;
    }
    expect(refused).toBeGreaterThan(0);
    console.info(`model file fuzz, byte flips: 500 files, ${refused} refused, ${loaded} loaded (flips in weights or in metadata text)`);
  });

  it('a 100 MB header: refused by its length field beyond the limit, and parsed then refused when it is not JSON', () => {
    const { header, data } = split(baseFile([]));
    const over = new Uint8Array(8 + MAX_HEADER_BYTES + 1);
    new DataView(over.buffer).setUint32(0, MAX_HEADER_BYTES + 1, true);
    over.fill(0x20, 8);
    expectRefused({ what: 'header over 100 MB', bytes: over, message: /says 100000001 bytes, beyond any real safetensors header/ });
    // Exactly at the limit: a real header with a 100 MB metadata value, cut before its closing brace.
    const text = JSON.stringify({ ...header, __metadata__: { ...header.__metadata__, note: '' } }).slice(0, -1);
    const pad = MAX_HEADER_BYTES - text.length;
    const note = `"${'n'.repeat(pad)}"`;
    const big = text.replace('"note":""', `"note":${note}`);
    expect(new TextEncoder().encode(big).length).toBe(MAX_HEADER_BYTES);
    expectRefused({ what: 'header of 100 MB, not JSON', bytes: rawFile(big, data), message: /The header is not JSON/ });
  });
});
