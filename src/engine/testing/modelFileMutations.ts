/** The mutations of the model-file verdicts test (io/modelFile.verdicts.test.ts), each an edit of a draft (modelFileDrafts.ts). */
import type { Rng } from '../shared/rng.ts';
import { TENSOR_MUTATIONS } from './modelFileTensorMutations.ts';
import { CONFIG_TEXTS, type Draft, deep, depthOf, indexOf, meta, pick, raw } from './modelFileDrafts.ts';

/** Each mutation edits the draft; a file gets one to three of them. */
export const MUTATIONS: ReadonlyArray<(rng: Rng, d: Draft) => void> = [
  ...TENSOR_MUTATIONS,
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
    } else if (m)
      m[pick(rng, ['steps', 'eorm_tokenizer', '__proto__', 'constructor', 'note'])] = pick(rng, [
        3,
        null,
        true,
        {},
        ['x'],
        raw(d, deep(depthOf(rng))),
        'ok',
        raw(d, '"\\ud83d\\ude00"'),
      ]);
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
      '{not json',
      '[1]',
      'NaN',
      '{"cls":10,"sep":9,"pad":10}',
      '{"cls":"10"}',
      '{"cls":50}',
      '{"cls":10.0,"sep":9e0,"pad":1e1}',
      '{"vocab_size":11,"d_model":8,"n_heads":2,"n_layers":2,"ffn":12,"cls_id":10,"sep_id":9,"pad_id":10}',
      '{"vocab_size":11.0,"d_model":8,"n_heads":3}',
      '{"d_model":"8","n_heads":2}',
      '{"n_heads":2,"max_len":1e400}',
      `{"n_heads":2,"x":${deep(depthOf(rng))}}`,
      deep(depthOf(rng)),
      '{"n_heads":2,"cls_id":10,"sep_id":9,"pad_id":10}',
      `{"n_heads":${'9'.repeat(5000)}}`,
      '{"steps":NaN}',
      '{"n_heads":2,"vocab_size":true}',
    ]);
    if (rng.int(3) === 0) delete m[pick(rng, ['config', 'eorm_special_ids', 'eorm_training'])];
    d.what.push(`metadata ${field}`);
  },
  // the header's text: whitespace, BOM, escapes, trailing bytes, not an object
  (rng, d) => {
    const kind = rng.int(9);
    const edits: Array<(t: string) => string> = [
      (t) => ` ${t}`,
      (t) => `\n${t}`,
      (t) => `\uFEFF${t}`,
      (t) => `${t}   `,
      (t) => `${t}x`,
      (t) => `${t}\u0000`,
      (t) => t.replace('"emb.weight"', '"emb\\u002eweight"'),
      (t) => t.replace('"head.3.bias"', '"head.3.bias\\ud800"'),
      () => pick(rng, ['[]', '42', 'null', '"x"', '{}']),
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
