/** The mutations of a model file's tensor entries and bytes (io/modelFile.verdicts.test.ts; modelFileMutations.ts lists them with the others). */
import { numel } from '../io/safetensors.ts';
import type { Rng } from '../shared/rng.ts';
import { type Draft, type Entry, deep, deepObject, depthOf, entries, offsetsOf, pick, raw, tensorNames } from './modelFileDrafts.ts';

/** data_offsets, shape, dtype, an entry's fields, a tensor missing, twice or extra, NaN bytes: each edits the draft. */
export const TENSOR_MUTATIONS: ReadonlyArray<(rng: Rng, d: Draft) => void> = [
  // data_offsets
  (rng, d) => {
    const list = entries(d);
    if (list.length === 0) return;
    const [name, e] = pick(rng, list);
    const [b, end] = offsetsOf(e);
    const n = d.data.length;
    const v = pick(rng, [
      [-16, -8],
      [b - 4, end - 4],
      [b + 4, end + 4],
      [end, b],
      [b],
      [b, end, end],
      'x',
      null,
      {},
      [String(b), String(end)],
      [b + 0.5, end],
      [raw(d, `${b}.0`), raw(d, `${end}e0`)],
      [raw(d, `${b}.0000000000000001`), end],
      [2 ** 53, 2 ** 53 + 4],
      [raw(d, '-0'), end],
      [true, end],
      [[b], end],
      [b, raw(d, '1e400')],
      [b, n + 4],
      [n, n],
      [0, 0],
      [b, end - 1],
      [b - 1, end - 1],
    ]);
    e.data_offsets = v;
    d.what.push(`offsets ${name}`);
  },
  // shape
  (rng, d) => {
    const list = entries(d);
    if (list.length === 0) return;
    const [name, e] = pick(rng, list);
    const s = Array.isArray(e.shape) ? (e.shape as number[]) : [1];
    const v = pick(rng, [
      [-1],
      s.map((x, i) => (i === 0 ? -x : x)),
      s.map((x) => raw(d, `${x}.0`)),
      s.map((x, i) => (i === 0 ? raw(d, `${x}.5`) : x)),
      [],
      [0],
      '8',
      null,
      s.map(String),
      [...s].reverse(),
      [numel(s)],
      [1, ...s],
      [2 ** 53],
      [raw(d, '1e400')],
      [true],
      [s],
      s.map((x) => raw(d, `${x}e0`)),
      [...s, 1],
      // Overflows doubles to Infinity, then × 0: NaN elements in the app (refused), whatever the offsets.
      [...Array<number>(20).fill(2 ** 53 - 1), 0],
    ]);
    e.shape = v;
    d.what.push(`shape ${name}`);
  },
  // dtype
  (rng, d) => {
    const list = entries(d);
    if (list.length === 0) return;
    const [name, e] = pick(rng, list);
    e.dtype = pick(rng, ['F16', 'F32', 'BF16', 'F64', 'I32', 'U8', 'Q4', 'f32', '', ['F32'], 32, null, {}, true]);
    d.what.push(`dtype ${name}`);
  },
  // a field missing, an ignored field added, or the entry not an object
  (rng, d) => {
    const list = entries(d);
    if (list.length === 0) return;
    const [name, e] = pick(rng, list);
    const kind = rng.int(3);
    if (kind === 0) delete e[pick(rng, ['dtype', 'shape', 'data_offsets'])];
    else if (kind === 1) {
      e[pick(rng, ['note', 'x', '__proto__'])] = pick(rng, [
        1,
        'x',
        {},
        null,
        raw(d, 'NaN'),
        raw(d, 'Infinity'),
        raw(d, '-Infinity'),
        raw(d, deep(depthOf(rng))),
        raw(d, deepObject(depthOf(rng))),
        raw(d, '7'.repeat(5000)),
        raw(d, '1e400'),
        raw(d, '-0'),
        raw(d, '"\\ud800"'),
        raw(d, '01'),
        raw(d, '+1'),
        raw(d, '.5'),
        raw(d, '1.'),
        raw(d, '"a\tb"'),
        raw(d, '"\\x"'),
        raw(d, '[1,]'),
      ]);
    } else d.header[name] = pick(rng, [[1], 'F32', 7, null, true]);
    d.what.push(`entry ${name} (${kind})`);
  },
  // a tensor missing, or given twice (the last one wins in JSON.parse)
  (rng, d) => {
    const names = tensorNames(d);
    if (names.length === 0) return;
    const name = pick(rng, names);
    if (rng.int(2) === 0) {
      delete d.header[name];
      d.what.push(`missing ${name}`);
      return;
    }
    const e = d.header[name] as Entry;
    const [b, end] = offsetsOf(e);
    const dup = JSON.stringify({
      ...e,
      data_offsets: pick(rng, [
        [b, end],
        [0, end - b],
        [b + 4, end + 4],
        [d.data.length, d.data.length],
      ]),
    });
    const first = rng.int(2) === 0;
    d.textEdits.push((t) => (first ? `{${JSON.stringify(name)}:${dup},${t.slice(1)}` : `${t.slice(0, -1)},${JSON.stringify(name)}:${dup}}`));
    d.what.push(`duplicate ${name} ${first ? 'first' : 'last'}`);
  },
  // an extra tensor
  (rng, d) => {
    const name = pick(rng, [
      'extra',
      'enc.layers.7',
      'enc.layers.2.x',
      'enc.layers.0001.x',
      'enc.layers.\u00b2.x',
      'enc.layers.\u0663.x',
      'enc.layers.99999999999999999999.x',
      'enc.layers.1023.x',
      'enc.layers.1024.x',
      'module.emb.weight',
      'pos.weight',
      '__proto__',
      'constructor',
      '0',
      '123',
      '',
      'emb.weight\u0000',
      'h\u00e9ad',
    ]);
    const dtype = pick(rng, ['F32', 'F16', 'BF16', 'Q4', 'F64']);
    if (rng.int(3) === 0) {
      d.header[name] = { dtype, shape: [0], data_offsets: [0, 0] };
    } else {
      const item = dtype === 'F64' ? 8 : dtype === 'F32' || dtype === 'Q4' ? 4 : 2;
      const shape = pick(rng, [[2], [16, 8], [3, 1], [4]]);
      const bytes = new Uint8Array(numel(shape) * item).map((_, i) => (i * 37) % 251);
      if (rng.int(3) === 0) bytes.fill(0xff, 0, item); // NaN in an unused tensor: not the app's concern
      const begin = d.data.length;
      const grown = new Uint8Array(begin + bytes.length);
      grown.set(d.data);
      grown.set(bytes, begin);
      d.data = grown;
      d.header[name] = { dtype, shape, data_offsets: [begin, begin + bytes.length] };
    }
    d.what.push(`extra ${JSON.stringify(name)} ${dtype}`);
  },
  // NaN / ±Infinity bytes in a tensor
  (rng, d) => {
    const list = entries(d).filter(([, e]) => (e.dtype === 'F32' || e.dtype === 'F16') && offsetsOf(e)[1] > offsetsOf(e)[0]);
    if (list.length === 0) return;
    const [name, e] = pick(rng, list);
    const [b, end] = offsetsOf(e);
    if (end > d.data.length) return;
    const f16 = e.dtype === 'F16';
    const at = b + (f16 ? 2 : 4) * rng.int((end - b) / (f16 ? 2 : 4));
    const data = d.data.slice();
    const dv = new DataView(data.buffer);
    const kind = rng.int(3);
    if (f16) dv.setUint16(at, kind === 0 ? 0x7c01 + rng.int(0x3ff) : kind === 1 ? 0x7c00 : 0xfc00, true);
    else dv.setUint32(at, kind === 0 ? 0x7f800001 + rng.int(0x7fffff) : kind === 1 ? 0x7f800000 : 0xff800000, true);
    d.data = data;
    d.what.push(`non-finite ${name}`);
  },
];
