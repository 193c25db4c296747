/**
 * The app and the Python package (python/eorm/weights.py) must accept and refuse exactly the same model
 * files. 1,000 seeded mutations of valid files (header JSON: offsets, dtypes, shapes, metadata and config
 * types, duplicate / missing / extra tensors, number literals, nesting depth; NaN bytes, truncation, the
 * header length field) are written to a folder; readModel gives the app's verdict here, and
 * python/scripts/model_verdicts.py gives Python's. Both must agree file by file: both refuse, or both
 * read the same config and the same float32 tensor bytes. Needs a Python with torch, as pythonInterop does.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../shared/rng.ts';
import { makeConfig, type ModelConfig, paramShapes } from '../model/config.ts';
import { findPython, INSTALL_TORCH, runPython } from '../testing/pythonNode.ts';
import { readModel, writeModel } from './modelFile.ts';
import { numel, SafetensorsError } from './safetensors.ts';
import { rawFile } from '../testing/safetensorsBytes.ts';

const FILES = 1_000;
const TINY = makeConfig({ vocabSize: 11, dModel: 8, nHeads: 2, nLayers: 2, ffnDim: 12, clsId: 10, sepId: 9, padId: 10, maxLen: 16 });

function baseFile(cfg: ModelConfig, f16: readonly string[]): Uint8Array {
  const tensors = new Map(paramShapes(cfg).map(([name, shape], k) => [name, Float32Array.from({ length: numel(shape) }, (_, i) => (((i * 7 + k * 13) % 61) - 30) / 64)]));
  return writeModel({ cfg, tensors, metadata: { tokenizer: 'r50k_base', training: { steps: 3 } }, f16 });
}

type Json = unknown;
type Entry = Record<string, Json>;

/** A file being mutated: its header (insertion order kept), data section, and edits of the final text / bytes. */
interface Draft {
  header: Record<string, Json>;
  data: Uint8Array;
  raws: string[];
  textEdits: Array<(text: string) => string>;
  byteEdits: Array<(bytes: Uint8Array) => Uint8Array>;
  lengthDelta?: number;
  what: string[];
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];

/** A JSON literal written verbatim (JSON.stringify cannot write `4.0`, `NaN`, `-0` or 3,000 nested arrays). */
function raw(d: Draft, text: string): string {
  d.raws.push(text);
  return `@@RAW${d.raws.length - 1}@@`;
}

const deep = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const depthOf = (rng: Rng) => pick(rng, [900, 1_500, 3_000, 3_000, 20_000, 100_000]);

function tensorNames(d: Draft): string[] {
  return Object.keys(d.header).filter((k) => k !== '__metadata__');
}
function entries(d: Draft): Array<[string, Entry]> {
  return tensorNames(d)
    .map((n) => [n, d.header[n]] as [string, Json])
    .filter((e): e is [string, Entry] => typeof e[1] === 'object' && e[1] !== null && !Array.isArray(e[1]));
}
function offsetsOf(e: Entry): [number, number] {
  const o = e.data_offsets;
  return Array.isArray(o) && typeof o[0] === 'number' && typeof o[1] === 'number' ? [o[0], o[1]] : [0, 0];
}
function meta(d: Draft): Record<string, Json> | undefined {
  const m = d.header.__metadata__;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Record<string, Json>) : undefined;
}

const CONFIG_TEXTS = (rng: Rng, d: Draft): string => {
  const c = { ...TINY } as Record<string, Json>;
  const [k, v] = pick(rng, [
    ['dModel', '8.0'], ['dModel', '8e0'], ['dModel', '"8"'], ['dModel', '8.5'], ['dModel', '1e400'], ['dModel', 'NaN'], ['dModel', 'true'], ['dModel', 'null'],
    ['nHeads', '3'], ['nHeads', '0'], ['nHeads', '-2'], ['nLayers', '1000000'], ['nLayers', '1'], ['nLayers', '3'], ['vocabSize', '2147483647'], ['vocabSize', '1048577'],
    ['vocabSize', '12'], ['clsId', '11'], ['clsId', '-0'], ['clsId', '10.5'], ['clsId', '-1'], ['padId', '1e1'], ['dropout', '1'], ['dropout', '-0.1'], ['dropout', '"0.2"'],
    ['dropout', '0'], ['dropout', '0.9999999999999999'], ['positional', '"learned"'], ['positional', '"other"'], ['positional', '5'], ['maxLen', '1'], ['maxLen', '65537'],
    ['maxLen', '16.000000000000001'], ['ffnDim', '24'], ['ffnDim', '65537'], ['extra', '1'], ['extra', deep(depthOf(rng))], ['extra', 'Infinity'], ['extra', '7'.repeat(5000)],
    ['__proto__', '{"dModel":16}'], ['dModel', '9007199254740993'],
  ] as const);
  d.what.push(`eorm_config ${k}=${v.slice(0, 20)}`);
  const parts = Object.entries(c).filter(([key]) => key !== k).map(([key, val]) => `${JSON.stringify(key)}:${JSON.stringify(val)}`);
  parts.splice(rng.int(parts.length + 1), 0, `${JSON.stringify(k)}:${v}`);
  // Sometimes only a few fields: the rest come from the shapes, the special ids and the defaults.
  if (rng.int(6) === 0) return `{${parts.filter(() => rng.int(2) === 0).join(',')}}`;
  return `{${parts.join(',')}}`;
};

/** Each mutation edits the draft; a file gets one to three of them. */
const MUTATIONS: ReadonlyArray<(rng: Rng, d: Draft) => void> = [
  // data_offsets
  (rng, d) => {
    const list = entries(d);
    if (list.length === 0) return;
    const [name, e] = pick(rng, list);
    const [b, end] = offsetsOf(e);
    const n = d.data.length;
    const v = pick(rng, [
      [-16, -8], [b - 4, end - 4], [b + 4, end + 4], [end, b], [b], [b, end, end], 'x', null, {}, [String(b), String(end)], [b + 0.5, end],
      [raw(d, `${b}.0`), raw(d, `${end}e0`)], [raw(d, `${b}.0000000000000001`), end], [2 ** 53, 2 ** 53 + 4], [raw(d, '-0'), end], [true, end], [[b], end],
      [b, raw(d, '1e400')], [b, n + 4], [n, n], [0, 0], [b, end - 1], [b - 1, end - 1],
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
      [-1], s.map((x, i) => (i === 0 ? -x : x)), s.map((x) => raw(d, `${x}.0`)), s.map((x, i) => (i === 0 ? raw(d, `${x}.5`) : x)), [], [0], '8', null,
      s.map(String), [...s].reverse(), [numel(s)], [1, ...s], [2 ** 53], [raw(d, '1e400')], [true], [s], s.map((x) => raw(d, `${x}e0`)), [...s, 1],
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
        1, 'x', {}, null, raw(d, 'NaN'), raw(d, 'Infinity'), raw(d, '-Infinity'), raw(d, deep(depthOf(rng))), raw(d, deepObject(depthOf(rng))), raw(d, '7'.repeat(5000)),
        raw(d, '1e400'), raw(d, '-0'), raw(d, '"\\ud800"'), raw(d, '01'), raw(d, '+1'), raw(d, '.5'), raw(d, '1.'), raw(d, '"a\tb"'), raw(d, '"\\x"'), raw(d, '[1,]'),
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
    const dup = JSON.stringify({ ...e, data_offsets: pick(rng, [[b, end], [0, end - b], [b + 4, end + 4], [d.data.length, d.data.length]]) });
    const first = rng.int(2) === 0;
    d.textEdits.push((t) => (first ? `{${JSON.stringify(name)}:${dup},${t.slice(1)}` : `${t.slice(0, -1)},${JSON.stringify(name)}:${dup}}`));
    d.what.push(`duplicate ${name} ${first ? 'first' : 'last'}`);
  },
  // an extra tensor
  (rng, d) => {
    const name = pick(rng, [
      'extra', 'enc.layers.7', 'enc.layers.2.x', 'enc.layers.0001.x', 'enc.layers.\u00b2.x', 'enc.layers.\u0663.x', 'enc.layers.99999999999999999999.x', 'enc.layers.1023.x',
      'enc.layers.1024.x', 'module.emb.weight', 'pos.weight', '__proto__', 'constructor', '0', '123', '', 'emb.weight\u0000', 'h\u00e9ad',
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
  // __metadata__ itself
  (rng, d) => {
    const m = meta(d);
    const kind = rng.int(4);
    if (kind === 0) d.header.__metadata__ = pick(rng, [[], 'x', 5, null, true, {}]);
    else if (kind === 1) delete d.header.__metadata__;
    else if (kind === 2 && m) {
      // Moved after the tensors.
      delete d.header.__metadata__;
      d.header.__metadata__ = m;
    } else if (m) m[pick(rng, ['steps', 'eorm_tokenizer', '__proto__', 'constructor', 'note'])] = pick(rng, [3, null, true, {}, ['x'], raw(d, deep(depthOf(rng))), 'ok', raw(d, '"\\ud83d\\ude00"')]);
    d.what.push(`metadata (${kind})`);
  },
  // eorm_config
  (rng, d) => {
    const m = meta(d);
    if (!m) return;
    const kind = rng.int(4);
    if (kind === 0) delete m.eorm_config;
    else if (kind === 1) m.eorm_config = pick(rng, ['{not json', '[1]', '5', 'null', '', '{"dModel":8,}', deep(depthOf(rng)), `{"x":${deep(depthOf(rng))}}`]);
    else m.eorm_config = CONFIG_TEXTS(rng, d);
    d.what.push(`eorm_config (${kind})`);
  },
  // the reference's `config` (read when eorm_config is absent), the special ids, the training summary
  (rng, d) => {
    const m = meta(d);
    if (!m) return;
    if (rng.int(2) === 0) delete m.eorm_config;
    const field = pick(rng, ['config', 'eorm_special_ids', 'eorm_training']);
    m[field] = pick(rng, [
      '{not json', '[1]', 'NaN', '{"cls":10,"sep":9,"pad":10}', '{"cls":"10"}', '{"cls":50}', '{"cls":10.0,"sep":9e0,"pad":1e1}', '{"vocab_size":11,"d_model":8,"n_heads":2,"n_layers":2,"ffn":12,"cls_id":10,"sep_id":9,"pad_id":10}',
      '{"vocab_size":11.0,"d_model":8,"n_heads":3}', '{"d_model":"8","n_heads":2}', '{"n_heads":2,"max_len":1e400}', `{"n_heads":2,"x":${deep(depthOf(rng))}}`, deep(depthOf(rng)),
      '{"n_heads":2,"cls_id":10,"sep_id":9,"pad_id":10}', `{"n_heads":${'9'.repeat(5000)}}`, '{"steps":NaN}', '{"n_heads":2,"vocab_size":true}',
    ]);
    if (rng.int(3) === 0) delete m[pick(rng, ['config', 'eorm_special_ids', 'eorm_training'])];
    d.what.push(`metadata ${field}`);
  },
  // the header's text: whitespace, BOM, escapes, trailing bytes, not an object
  (rng, d) => {
    const kind = rng.int(9);
    const edits: Array<(t: string) => string> = [
      (t) => ` ${t}`, (t) => `\n${t}`, (t) => `\uFEFF${t}`, (t) => `${t}   `, (t) => `${t}x`, (t) => `${t}\u0000`,
      (t) => t.replace('"emb.weight"', '"emb\\u002eweight"'), (t) => t.replace('"head.3.bias"', '"head.3.bias\\ud800"'), () => pick(rng, ['[]', '42', 'null', '"x"', '{}']),
    ];
    d.textEdits.push(edits[kind]);
    d.what.push(`text (${kind})`);
  },
  // bytes: the length field, truncation, bad UTF-8
  (rng, d) => {
    const kind = rng.int(5);
    if (kind === 0) d.lengthDelta = pick(rng, [-1, -2, -8, 1, 2, 8, 64, 2 ** 40, 100_000_001, -(2 ** 20)]);
    else if (kind === 1) d.byteEdits.push((b) => b.slice(0, rng.int(b.length)));
    else if (kind === 2) d.byteEdits.push((b) => b.slice(0, b.length - 1 - rng.int(8)));
    else if (kind === 3) {
      const seq = pick(rng, [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98, 0x80]]);
      d.textEdits.push((t) => t.replace('"eorm_tokenizer":"r50k_base"', '"eorm_tokenizer":"r50k_base@@BYTES@@"'));
      d.byteEdits.push((b) => {
        const at = indexOf(b, new TextEncoder().encode('@@BYTES@@'));
        if (at < 0) return b;
        const out = new Uint8Array(b.length - 9 + seq.length);
        out.set(b.subarray(0, at));
        out.set(seq, at);
        out.set(b.subarray(at + 9), at + seq.length);
        return out;
      });
    } else d.byteEdits.push((b) => (b.length > 8 ? b.slice(0, 8 + rng.int(64)) : b));
    d.what.push(`bytes (${kind})`);
  },
  // harmless: a gap before / after the data, another tokenizer name
  (rng, d) => {
    const grown = new Uint8Array(d.data.length + 4 + rng.int(8));
    grown.set(d.data);
    d.data = grown;
    if (rng.int(2) === 0) meta(d) && (meta(d)!.eorm_tokenizer = 'other');
    d.what.push('gap');
  },
];

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** A file's bytes; the header is written with the length field exact (unless a mutation lies) and no padding. */
function build(d: Draft): Uint8Array {
  let text = JSON.stringify(d.header);
  text = text.replace(/"@@RAW(\d+)@@"/g, (_, k: string) => d.raws[Number(k)]);
  for (const edit of d.textEdits) text = edit(text);
  const length = new TextEncoder().encode(text).length;
  let bytes: Uint8Array = rawFile(text, d.data, d.lengthDelta === undefined ? undefined : Math.max(0, length + d.lengthDelta));
  for (const edit of d.byteEdits) bytes = edit(bytes);
  return bytes;
}

function draft(file: Uint8Array): Draft {
  const n = new DataView(file.buffer, file.byteOffset).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + n))) as Record<string, Json>;
  return { header, data: file.slice(8 + n), raws: [], textEdits: [], byteEdits: [], what: [] };
}

interface Verdict {
  file: string;
  ok: boolean;
  cfg?: ModelConfig;
  digest?: string;
  error?: string;
  crash?: string;
}

function appVerdict(file: string, bytes: Uint8Array): Verdict {
  try {
    const m = readModel(bytes);
    const h = createHash('sha256');
    for (const [name] of paramShapes(m.cfg)) {
      const t = m.tensors.get(name)!;
      h.update(new Uint8Array(t.buffer, t.byteOffset, t.byteLength));
    }
    return { file, ok: true, cfg: m.cfg, digest: h.digest('hex') };
  } catch (e) {
    if (e instanceof SafetensorsError) return { file, ok: false, error: e.message };
    return { file, ok: false, crash: String(e) };
  }
}

const { python, tried } = findPython();
const dir = mkdtempSync(join(tmpdir(), 'eorm-verdicts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('model files: the app and python/eorm/weights.py give the same verdicts', () => {
  it(`agree on each of ${FILES} seeded mutated files (accept with the same config and tensors, or refuse)`, () => {
    if (!python) throw new Error(`No Python with torch found (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const rng = createRng(20_261_124);
    const learned = makeConfig({ ...TINY, positional: 'learned' });
    const bases = [baseFile(TINY, []), baseFile(TINY, ['emb.weight', 'enc.layers.1.linear2.weight', 'head.3.bias']), baseFile(learned, ['pos.weight'])];
    const app: Verdict[] = [];
    const what = new Map<string, string>();
    for (let k = 0; k < FILES; k++) {
      const d = draft(pick(rng, bases));
      // One file in ten unmutated or only harmlessly changed: the reverse direction (both accept) counts too.
      const n = rng.int(10) === 0 ? 0 : 1 + rng.int(3);
      for (let i = 0; i < n; i++) MUTATIONS[rng.int(MUTATIONS.length)](rng, d);
      const file = `${String(k).padStart(4, '0')}.safetensors`;
      const bytes = build(d);
      writeFileSync(join(dir, file), bytes);
      app.push(appVerdict(file, bytes));
      what.set(file, d.what.join('; ') || 'unmutated');
    }
    expect(app.filter((v) => v.crash !== undefined), 'the app threw something other than a SafetensorsError').toEqual([]);
    const py = JSON.parse(runPython(python, ['scripts/model_verdicts.py', dir], { OMP_NUM_THREADS: '1' })) as Verdict[];
    expect(py.map((v) => v.file)).toEqual(app.map((v) => v.file));

    const disagreements: string[] = [];
    app.forEach((a, i) => {
      const p = py[i];
      const same = a.ok === p.ok && p.crash === undefined && (!a.ok || (JSON.stringify(a.cfg) === JSON.stringify(p.cfg) && a.digest === p.digest));
      if (!same) {
        const say = (v: Verdict) => (v.ok ? `accepts ${JSON.stringify(v.cfg)} ${v.digest!.slice(0, 8)}` : v.crash ? `CRASHES ${v.crash}` : `refuses: ${v.error}`);
        disagreements.push(`${a.file} [${what.get(a.file)}]\n    app ${say(a).slice(0, 300)}\n    python ${say(p).slice(0, 300)}`);
      }
    });
    const accepted = app.filter((v) => v.ok).length;
    console.info(`model file verdicts: ${FILES} files, ${accepted} accepted and ${FILES - accepted} refused by the app; ${disagreements.length} disagreements`);
    expect(accepted, 'the mutations should leave some files valid').toBeGreaterThan(50);
    expect(FILES - accepted).toBeGreaterThan(500);
    expect(disagreements.length, `first disagreements:\n${disagreements.slice(0, 8).join('\n')}`).toBe(0);
  });
});
