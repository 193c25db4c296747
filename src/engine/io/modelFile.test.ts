import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromReference, makeConfig, type ModelConfig, paramShapes } from '../model/config.ts';
import { fixtureDir } from '../testing/fixtureDir.ts';
import { META, readModel, writeModel } from './modelFile.ts';
import { numel, parseHeader, readSafetensors, SafetensorsError } from './safetensors.ts';
import { writeSafetensors } from './safetensorsWriter.ts';
import { growth, LINEAR_LIMIT } from '../data/testing/scaling.ts';
import { caught, rawFile } from '../testing/safetensorsBytes.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(resolve(fixtureDir(), name)));
const fixtureConfig = () => configFromReference(JSON.parse(readFileSync(resolve(fixtureDir(), 'config.json'), 'utf8')) as Record<string, unknown>);

const TINY: ModelConfig = makeConfig({ vocabSize: 11, dModel: 8, nHeads: 2, nLayers: 2, ffnDim: 12, clsId: 10, sepId: 9, padId: 10, maxLen: 16 });

/** Deterministic, distinct values per tensor; values are float16-exact (multiples of 1/64, small). */
function tensorsFor(cfg: ModelConfig): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  paramShapes(cfg).forEach(([name, shape], k) => {
    const a = new Float32Array(numel(shape));
    for (let i = 0; i < a.length; i++) a[i] = (((i * 7 + k * 13) % 61) - 30) / 64;
    out.set(name, a);
  });
  return out;
}

/** A converted PyTorch checkpoint: state_dict names, no metadata (optionally edited). */
function bareFile(cfg: ModelConfig, edit: (list: Array<{ name: string; shape: number[]; data: Float32Array }>) => void = () => {}) {
  const t = tensorsFor(cfg);
  const list = paramShapes(cfg).map(([name, shape]) => ({ name, shape, data: t.get(name)! }));
  edit(list);
  return writeSafetensors(list);
}

/** Bitwise equality (fast on the 1.6M-value embedding, where a deep-equal is slow). */
function sameBits(a: Float32Array, b: Float32Array): boolean {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function refuse(fn: () => unknown, msg: RegExp, tensor?: string) {
  const e = caught(fn);
  expect(e).toBeInstanceOf(SafetensorsError);
  expect(e.message).toMatch(msg);
  expect(e.tensor).toBe(tensor);
}

describe('fixture weights', () => {
  it('validate against config.json + configFromReference, supplied by the caller', () => {
    const bytes = fixture('weights.safetensors');
    const cfg = fixtureConfig();
    const m = readModel(bytes, { config: cfg });
    expect(m.configSource).toBe('caller');
    expect(m.cfg).toEqual(cfg);
    expect([...m.tensors.keys()]).toEqual(paramShapes(cfg).map(([n]) => n));
    expect(m.warnings).toEqual([]);
    const plain = readSafetensors(bytes);
    for (const [name, data] of m.tensors) expect(sameBits(data, plain.tensors.get(name)!.data), name).toBe(true);
  });

  it('load without a config, from the reference "config" in the metadata', () => {
    const m = readModel(fixture('weights.safetensors'));
    const cfg = fixtureConfig();
    expect(m.configSource).toBe('reference_config');
    for (const k of ['vocabSize', 'dModel', 'nHeads', 'nLayers', 'ffnDim', 'positional'] as const) expect(m.cfg[k], k).toBe(cfg[k]);
    expect(m.warnings.join('\n')).toMatch(/special token ids are not recorded/);
  });

  it('do not validate against a different config, naming the tensor', () => {
    const cfg = fixtureConfig();
    refuse(
      () => readModel(fixture('weights.safetensors'), { config: { ...cfg, ffnDim: cfg.ffnDim * 2 } }),
      /"enc\.layers\.0\.linear1\.weight" has shape \[.*\] but the config/,
      'enc.layers.0.linear1.weight',
    );
  });
});

describe('writeModel → readModel', () => {
  it('round-trips config, tensors, tokenizer and training summary; writes in state_dict order', () => {
    const tensors = tensorsFor(TINY);
    const training = { steps: 120, finalLoss: 0.41, data: 'gsm8k-sample', ok: true };
    const bytes = writeModel({ cfg: TINY, tensors, metadata: { tokenizer: 'r50k_base', training, extra: { note: 'hi' } } });
    expect(parseHeader(bytes).tensors.map((t) => t.name)).toEqual(paramShapes(TINY).map(([n]) => n));
    const m = readModel(bytes);
    expect(m.configSource).toBe('eorm_config');
    expect(m.cfg).toEqual(TINY);
    expect(m.tokenizer).toBe('r50k_base');
    expect(m.training).toEqual(training);
    expect(m.metadata.note).toBe('hi');
    expect(m.metadata[META.format]).toBe('pt');
    expect(JSON.parse(m.metadata[META.specialIds])).toEqual({ cls: 10, sep: 9, pad: 10 });
    expect(JSON.parse(m.metadata[META.referenceConfig])).toMatchObject({ vocab_size: 11, d_model: 8, n_heads: 2, n_layers: 2, ffn: 12 });
    expect(m.warnings).toEqual([]);
    for (const [name, data] of tensors) expect(m.tensors.get(name)).toEqual(data);
  });

  it('is deterministic: the same model gives the same bytes, whatever the key order of cfg / map', () => {
    const tensors = tensorsFor(TINY);
    const shuffled = new Map([...tensors].reverse());
    const cfg2 = Object.fromEntries(Object.entries(TINY).reverse()) as unknown as ModelConfig;
    expect(writeModel({ cfg: cfg2, tensors: shuffled })).toEqual(writeModel({ cfg: TINY, tensors }));
  });

  it('stores chosen tensors as F16 (smaller, same float16-exact values)', () => {
    const tensors = tensorsFor(TINY);
    const f32 = writeModel({ cfg: TINY, tensors });
    const half = writeModel({ cfg: TINY, tensors, f16: ['emb.weight'] });
    expect(parseHeader(half).byName.get('emb.weight')!.dtype).toBe('F16');
    expect(f32.length - half.length).toBeGreaterThanOrEqual(2 * TINY.vocabSize * TINY.dModel - 8);
    expect(readModel(half).tensors.get('emb.weight')).toEqual(tensors.get('emb.weight'));
  });

  it('learned positions: pos.weight is written, read and inferred', () => {
    const cfg = makeConfig({ ...TINY, positional: 'learned' });
    const bytes = writeModel({ cfg, tensors: tensorsFor(cfg) });
    expect(readModel(bytes).cfg).toEqual(cfg);
    const bare = readModel(bareFile(cfg), { config: { nHeads: 2, clsId: 10, sepId: 9, padId: 10 } });
    expect(bare.cfg).toMatchObject({ positional: 'learned', maxLen: 16 });
  });

  it('refuses to write an incomplete, mis-sized or foreign parameter set', () => {
    const t = tensorsFor(TINY);
    const without = new Map(t);
    without.delete('head.1.bias');
    refuse(() => writeModel({ cfg: TINY, tensors: without }), /"head\.1\.bias" is missing/, 'head.1.bias');
    refuse(() => writeModel({ cfg: TINY, tensors: new Map(t).set('head.1.bias', new Float32Array(3)) }), /has 3 values/, 'head.1.bias');
    refuse(() => writeModel({ cfg: TINY, tensors: new Map(t).set('head.2.weight', new Float32Array(1)) }), /not a parameter/, 'head.2.weight');
    refuse(() => writeModel({ cfg: TINY, tensors: t, metadata: { extra: { eorm_config: '{}' } } }), /reserved/);
    refuse(() => writeModel({ cfg: { ...TINY, nHeads: 3 }, tensors: t }), /config is invalid.*divisible/);
  });
});

describe('converted PyTorch checkpoints without metadata', () => {
  it('infers vocabSize, dModel, nLayers, ffnDim from the shapes; nHeads defaults to 4 with a warning', () => {
    const cfg = makeConfig({ vocabSize: 50257, dModel: 8, nHeads: 4, nLayers: 1, ffnDim: 12 });
    const m = readModel(bareFile(cfg));
    expect(m.configSource).toBe('shapes');
    expect(m.cfg).toMatchObject({ vocabSize: 50257, dModel: 8, nLayers: 1, ffnDim: 12, nHeads: 4, positional: 'none', clsId: 50256 });
    expect(m.warnings).toEqual([
      expect.stringMatching(/cannot be read from the shapes; assuming nHeads = 4/),
      expect.stringMatching(/special token ids are not recorded in the file; assuming GPT-2's <\|endoftext\|> \(50256\)/),
    ]);
    expect(m.tensors.size).toBe(paramShapes(cfg).length);
  });

  it('a vocabulary without GPT-2 ids needs the ids from the caller', () => {
    refuse(() => readModel(bareFile(TINY), { config: { nHeads: 2 } }), /clsId must be a token id below vocabSize.*explicit config/);
  });

  it('caller fields fill in what the shapes cannot tell (nHeads, ids) without that warning', () => {
    const m = readModel(bareFile(TINY), { config: { nHeads: 2, clsId: 10, sepId: 9, padId: 10 } });
    expect(m.cfg).toEqual({ ...TINY, dropout: m.cfg.dropout, maxLen: m.cfg.maxLen });
    expect(m.warnings).toEqual([]);
  });

  it('nHeads from the reference metadata wins over the default', () => {
    const t = tensorsFor(TINY);
    const list = paramShapes(TINY).map(([name, shape]) => ({ name, shape, data: t.get(name)! }));
    const m = readModel(writeSafetensors(list, { config: JSON.stringify({ n_heads: 2, cls_id: 10, sep_id: 9, pad_id: 10 }) }));
    expect(m.configSource).toBe('reference_config');
    expect(m.cfg.nHeads).toBe(2);
    expect(m.warnings).toEqual([]);
  });

  it('hints at a "module." prefix (DataParallel) when names do not match', () => {
    const bytes = bareFile(TINY, (list) => list.forEach((t) => (t.name = `module.${t.name}`)));
    refuse(() => readModel(bytes, { config: TINY }), /"emb\.weight" .*is missing.*strip the "module\." prefix/, 'emb.weight');
  });

  it('cannot infer anything without emb.weight: asks for a config', () => {
    const bytes = bareFile(TINY, (list) => list.splice(0, 1));
    refuse(() => readModel(bytes), /do not reveal vocabSize, dModel.*explicit config/, 'emb.weight');
  });
});

describe('readModel refuses files that do not fit, loading nothing', () => {
  it('NaN or infinite weights, naming the tensor and the first bad index (F32 and F16)', () => {
    for (const [value, f16] of [
      [NaN, []],
      [Infinity, []],
      [-Infinity, ['head.1.bias']],
    ] as const) {
      const t = tensorsFor(TINY);
      t.get('head.1.bias')![3] = value;
      const bytes = writeModel({ cfg: TINY, tensors: t, f16 });
      refuse(
        () => readModel(bytes),
        new RegExp(`"head\\.1\\.bias" has 1 NaN/infinite value\\(s\\) \\(the first at index 3: ${value}\\).*earlier checkpoint`),
        'head.1.bias',
      );
    }
  });

  it('a config far larger than the file: one message for the first missing tensor and a count of the rest', () => {
    const meta = { eorm_config: JSON.stringify({ ...TINY, nLayers: 1000 }) };
    const list = paramShapes(TINY).map(([name, shape]) => ({ name, shape, data: tensorsFor(TINY).get(name)! }));
    // 1000 layers × 12 tensors expected, 2 layers present: 998 × 12 = 11,976 missing.
    refuse(
      () => readModel(writeSafetensors(list, meta)),
      /"enc\.layers\.2\.self_attn\.in_proj_weight" .*is missing .*\(11975 more problem\(s\), e\.g\. "enc\.layers\.2\.self_attn\.in_proj_bias"\)$/,
      'enc.layers.2.self_attn.in_proj_weight',
    );
  });

  it('names a missing tensor in time linear in the number of tensors (enc.layers.<n/100>.x plus n junk tensors)', () => {
    const make = (n: number) => {
      const header: Record<string, unknown> = {
        __metadata__: { eorm_special_ids: '{"cls": 10, "sep": 10, "pad": 10}' },
        'emb.weight': { dtype: 'F32', shape: [11, 8], data_offsets: [0, 352] },
        [`enc.layers.${n / 100}.x`]: { dtype: 'F32', shape: [0], data_offsets: [0, 0] },
      };
      for (let i = 0; i < n; i++) header[`junk.${i}`] = { dtype: 'F32', shape: [0], data_offsets: [0, 0] };
      return rawFile(header, new Uint8Array(352));
    };
    expect(caught(() => readModel(make(2_000))).message).toMatch(/"enc\.layers\.0\.self_attn\.in_proj_weight" .*is missing/);
    const g = growth(make, (bytes) => caught(() => readModel(bytes)), 2_000);
    expect(g.ratio, `${g.small.toFixed(2)} ms → ${g.large.toFixed(2)} ms`).toBeLessThan(LINEAR_LIMIT);
  });

  it('missing tensor', () => {
    const bytes = bareFile(TINY, (list) =>
      list.splice(
        list.findIndex((t) => t.name === 'enc.layers.1.norm2.bias'),
        1,
      ),
    );
    refuse(() => readModel(bytes, { config: TINY }), /"enc\.layers\.1\.norm2\.bias" \(shape \[8\]\) is missing/, 'enc.layers.1.norm2.bias');
  });

  it('a whole layer missing is caught with the config from the metadata', () => {
    const cfg3 = makeConfig({ ...TINY, nLayers: 3 });
    const full = readSafetensors(writeModel({ cfg: cfg3, tensors: tensorsFor(cfg3) }));
    const list = [...full.tensors].filter(([n]) => !n.startsWith('enc.layers.2.')).map(([name, t]) => ({ name, ...t }));
    refuse(
      () => readModel(writeSafetensors(list, full.metadata)),
      /"enc\.layers\.2\.self_attn\.in_proj_weight" .*missing.*\(11 more problem/,
      'enc.layers.2.self_attn.in_proj_weight',
    );
  });

  it('shape that disagrees with the config', () => {
    const bytes = bareFile(TINY, (list) => {
      const t = list.find((x) => x.name === 'head.3.weight')!;
      t.shape = [8, 1];
    });
    refuse(() => readModel(bytes, { config: TINY }), /"head\.3\.weight" has shape \[8, 1\] but the config .* needs \[1, 8\]/, 'head.3.weight');
  });

  it('unsupported dtype of a needed tensor', () => {
    const h = { 'emb.weight': { dtype: 'BF16', shape: [11, 8], data_offsets: [0, 176] } };
    refuse(() => readModel(rawFile(h, new Uint8Array(176)), { config: TINY }), /"emb\.weight" is stored as BF16; only F32 and F16/, 'emb.weight');
  });

  it('extra tensors: a warning by default (any dtype), refused with rejectExtra', () => {
    const bytes = bareFile(TINY, (list) => list.push({ name: 'enc.norm.weight', shape: [8], data: new Float32Array(8) }));
    const m = readModel(bytes, { config: TINY });
    expect(m.warnings).toEqual([expect.stringMatching(/Ignored 1 tensor\(s\) .*"enc\.norm\.weight"/)]);
    expect(m.tensors.has('enc.norm.weight')).toBe(false);
    refuse(() => readModel(bytes, { config: TINY, rejectExtra: true }), /does not use: "enc\.norm\.weight"/, 'enc.norm.weight');
  });

  it('damaged or invalid config metadata', () => {
    const t = tensorsFor(TINY);
    const list = paramShapes(TINY).map(([name, shape]) => ({ name, shape, data: t.get(name)! }));
    refuse(() => readModel(writeSafetensors(list, { eorm_config: '{not json' })), /"eorm_config"\) is not a JSON object/);
    refuse(() => readModel(writeSafetensors(list, { eorm_config: JSON.stringify({ ...TINY, dModel: '8' }) })), /"dModel" is "8", not a number/);
    refuse(() => readModel(writeSafetensors(list, { eorm_config: JSON.stringify({ ...TINY, nHeads: 3 }) })), /invalid .*divisible by nHeads/);
    // A complete caller config makes damaged metadata harmless.
    const m = readModel(writeSafetensors(list, { eorm_config: '{not json' }), { config: TINY });
    expect(m.warnings.join()).toMatch(/not a JSON object; using the config supplied/);
  });
});

describe('readModel warnings', () => {
  it('caller overriding the file config, newer config fields', () => {
    const t = tensorsFor(TINY);
    const bytes = writeModel({ cfg: TINY, tensors: t });
    const m = readModel(bytes, { config: { nHeads: 4 } });
    expect(m.cfg.nHeads).toBe(4);
    expect(m.warnings).toEqual(["Using the supplied nHeads = 4 instead of the file's 2."]);
    const meta = { ...readSafetensors(bytes).metadata, eorm_config: JSON.stringify({ ...TINY, rotary: true }) };
    const list = paramShapes(TINY).map(([name, shape]) => ({ name, shape, data: tensorsFor(TINY).get(name)! }));
    expect(readModel(writeSafetensors(list, meta)).warnings).toEqual(['Ignored config fields this version does not know: rotary.']);
  });

  it('views into the input by default, copies with copy: true', () => {
    const bytes = writeModel({ cfg: TINY, tensors: tensorsFor(TINY) });
    expect(readModel(bytes).tensors.get('head.1.weight')!.buffer).toBe(bytes.buffer);
    expect(readModel(bytes, { copy: true }).tensors.get('head.1.weight')!.buffer).not.toBe(bytes.buffer);
  });
});

describe('hostile configs in a tiny file are refused before anything is sized by them', () => {
  const ref = (nLayers: number) => JSON.stringify({ vocab_size: 11, d_model: 8, n_heads: 2, n_layers: nLayers, cls_id: 10, sep_id: 10, pad_id: 10 });
  it.each([
    ['eorm_config nLayers 1,000,000', { eorm_config: JSON.stringify({ ...TINY, nLayers: 1_000_000 }) }, /nLayers must be at most 1024 \(got 1000000\)/],
    ['reference n_layers 1,000,000', { config: ref(1_000_000) }, /nLayers must be at most 1024 \(got 1000000\)/],
    ['nLayers 2^31 − 1', { eorm_config: JSON.stringify({ ...TINY, nLayers: 2 ** 31 - 1 }) }, /nLayers must be at most 1024 \(got 2147483647\)/],
    ['vocabSize 2^31 − 1', { eorm_config: JSON.stringify({ ...TINY, vocabSize: 2 ** 31 - 1 }) }, /vocabSize must be at most 1048576/],
    ['dModel 2^20', { eorm_config: JSON.stringify({ ...TINY, dModel: 2 ** 20, nHeads: 1 }) }, /dModel must be at most 16384/],
    [
      '4 GB of parameters',
      { eorm_config: JSON.stringify({ ...TINY, vocabSize: 1 << 20, dModel: 1024, nHeads: 2, ffnDim: 4096 }) },
      /1099986945 parameters, more than/,
    ],
  ])('%s', (_, meta, msg) => {
    const bytes = rawFile({ __metadata__: meta });
    expect(bytes.length).toBeLessThan(300);
    refuse(() => readModel(bytes), msg);
  });
});
