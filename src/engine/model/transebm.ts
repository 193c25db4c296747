import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from './config.ts';
import type { SeededDropout } from './dropout.ts';
import { matMul } from '../kernels/matmul.ts';
import { mergeHeads, splitHeads } from '../kernels/raggedHeads.ts';
import { gatherRows, gelu, layerNorm, linear, maskedSoftmax, qkvHeads } from './ops.ts';

/** Any name → tensor map works (trainable variables, or plain tensors in tests). */
export type ParamTensors = ReadonlyMap<string, tf.Tensor>;

export interface EnergyInputs {
  /** int32 [B, T], CLS first, padded to T. */
  ids: tf.Tensor2D;
  /** int32 [B], true lengths; keys at t >= length are masked out of attention. */
  lengths: tf.Tensor1D;
  /** The same lengths on the host: the packed path needs them to lay out its rows. */
  hostLengths?: Int32Array;
}

export interface ForwardOptions {
  /** Present only in training mode; eval mode has no dropout at all. */
  dropout?: SeededDropout;
  /** Receives intermediate activations (x0, layer{i}, cls, head_hidden) for parity tests. */
  inspect?: (name: string, t: tf.Tensor) => void;
  /**
   * Pack the real tokens of all candidates into one [N, d] matrix (no padding) and attend within each
   * candidate: the same maths, without the padded rows. Default: on the CPU-memory backends, where
   * every padded row costs time; the padded composition below stays the reference (and the WebGPU path).
   */
  packed?: boolean;
}

const packedByDefault = () => tf.getBackend() === 'wasm';

/** Large enough that exp() underflows to exactly 0, finite so no NaN reaches any gradient. */
const MASKED = -1e9;

/**
 * TransEBM energies, one per candidate (lower = better): token embedding × √d (no positional
 * encoding by default), pre-LN encoder layers, and an MLP head on the CLS output.
 * The last layer is evaluated for the CLS query only: nothing else of it reaches the energy.
 */
export function energies(cfg: ModelConfig, p: ParamTensors, inputs: EnergyInputs, opts: ForwardOptions = {}): tf.Tensor1D {
  return tf.tidy(() => {
    const get = (name: string) => {
      const t = p.get(name);
      if (!t) throw new Error(`parameter "${name}" is missing`);
      return t;
    };
    const [, T] = inputs.ids.shape;
    if (T > cfg.maxLen) throw new Error(`input length ${T} exceeds maxLen ${cfg.maxLen}`);
    if ((opts.packed ?? packedByDefault()) && inputs.hostLengths) return packedEnergies(cfg, get, inputs.ids, Array.from(inputs.hostLengths), opts);
    let x = tf.mul(gatherRows(get('emb.weight') as tf.Tensor2D, inputs.ids), Math.sqrt(cfg.dModel));
    if (cfg.positional === 'learned') x = tf.add(x, tf.slice(get('pos.weight'), [0, 0], [T, cfg.dModel]));
    opts.inspect?.('x0', x);
    const keyMask = keyPaddingBias(inputs.lengths, T);
    for (let i = 0; i < cfg.nLayers; i++) {
      const last = i === cfg.nLayers - 1;
      x = encoderLayer(cfg, get, `enc.layers.${i}.`, x, keyMask, last, opts.dropout);
      if (!last) opts.inspect?.(`layer${i}`, x);
    }
    // x is [B, d] now: the CLS position of the last layer.
    return head(get, x, opts);
  });
}

/** The MLP head on the CLS output [B, d]: energies [B]. */
function head(get: Getter, cls: tf.Tensor, opts: ForwardOptions): tf.Tensor1D {
  opts.inspect?.('cls', cls);
  const hidden = gelu(linear(layerNorm(cls, get('head.0.weight'), get('head.0.bias')), get('head.1.weight'), get('head.1.bias')));
  opts.inspect?.('head_hidden', hidden);
  return tf.reshape(linear(hidden, get('head.3.weight'), get('head.3.bias')), [-1]) as tf.Tensor1D;
}

/**
 * The packed path: the same model on [N, d] (N = real tokens of all candidates), attention per
 * (candidate, head) block on exactly that candidate's rows, so no key needs masking.
 */
function packedEnergies(cfg: ModelConfig, get: Getter, paddedIds: tf.Tensor2D, lengths: number[], opts: ForwardOptions): tf.Tensor1D {
  const [B, T] = paddedIds.shape;
  const rows: number[] = [];
  const positions: number[] = [];
  const clsRows: number[] = [];
  lengths.forEach((len, b) => {
    clsRows.push(rows.length);
    for (let t = 0; t < len; t++) {
      rows.push(b * T + t);
      positions.push(t);
    }
  });
  const ids = tf.gather(tf.reshape(paddedIds, [-1]), tf.tensor1d(rows, 'int32'));
  let x = tf.mul(gatherRows(get('emb.weight') as tf.Tensor2D, ids), Math.sqrt(cfg.dModel));
  if (cfg.positional === 'learned') x = tf.add(x, gatherRows(get('pos.weight') as tf.Tensor2D, tf.tensor1d(positions, 'int32')));
  // Parity tests compare intermediates in the padded [B, T, d] layout: padded rows read as zeros.
  const padded = (t: tf.Tensor) => {
    const index = new Int32Array(B * T).fill(rows.length);
    rows.forEach((r, i) => (index[r] = i));
    return tf.reshape(tf.gather(tf.concat([t, tf.zeros([1, cfg.dModel])]), tf.tensor1d(index, 'int32')), [B, T, cfg.dModel]);
  };
  if (opts.inspect) opts.inspect('x0', padded(x));
  const cls = tf.tensor1d(clsRows, 'int32');
  for (let i = 0; i < cfg.nLayers; i++) {
    const last = i === cfg.nLayers - 1;
    x = packedEncoderLayer(cfg, get, `enc.layers.${i}.`, x, lengths, cls, last, opts.dropout);
    if (!last && opts.inspect) opts.inspect(`layer${i}`, padded(x));
  }
  return head(get, x, opts);
}

/** encoderLayer on packed rows; with `clsOnly` (the last layer) only the CLS rows are computed: [B, d]. */
function packedEncoderLayer(cfg: ModelConfig, get: Getter, pre: string, x: tf.Tensor, lengths: number[], cls: tf.Tensor1D, clsOnly: boolean, drop?: SeededDropout): tf.Tensor {
  const d = cfg.dModel;
  const H = cfg.nHeads;
  const dh = d / H;
  const h = layerNorm(x, get(`${pre}norm1.weight`), get(`${pre}norm1.bias`));
  const wIn = get(`${pre}self_attn.in_proj_weight`);
  const bIn = get(`${pre}self_attn.in_proj_bias`);
  const layout = { lengths, heads: H, dh };
  // The queries' 1/√dh is folded into their projection (a [d, d] product instead of every score
  // block), and keys come as [dh, len] blocks: each block's scores are one plain product.
  const s = 1 / Math.sqrt(dh);
  let q: tf.Tensor[];
  let kT: tf.Tensor[];
  let v: tf.Tensor[];
  if (clsOnly) {
    const qCls = linear(gatherRows(h as tf.Tensor2D, cls), tf.mul(tf.slice(wIn, [0, 0], [d, d]), s), tf.mul(tf.slice(bIn, [0], [d]), s));
    const kv = linear(h, tf.slice(wIn, [d, 0], [2 * d, d]), tf.slice(bIn, [d], [2 * d]));
    [q] = splitHeads(qCls, { ...layout, lengths: lengths.map(() => 1) }, [{ col0: 0 }]);
    [kT, v] = splitHeads(kv, layout, [{ col0: 0, transpose: true }, { col0: d }]);
  } else {
    const rowScale = tf.concat([tf.fill([d, 1], s), tf.ones([2 * d, 1])]);
    const qkv = linear(h, tf.mul(wIn, rowScale), tf.mul(bIn, tf.reshape(rowScale, [-1])));
    [q, kT, v] = splitHeads(qkv, layout, [{ col0: 0 }, { col0: d, transpose: true }, { col0: 2 * d }]);
  }
  const context = q.map((qi, j) => {
    let probs = tf.softmax(matMul(qi, kT[j]));
    if (drop) probs = drop.apply(probs);
    return matMul(probs, v[j]);
  });
  const queries = { lengths: clsOnly ? lengths.map(() => 1) : lengths, heads: H, dh };
  return residualTail(get, pre, clsOnly ? gatherRows(x as tf.Tensor2D, cls) : x, mergeHeads(context, queries), drop);
}

/** The rest of a layer after attention: x + Drop(out_proj(context)), then y + Drop(W2·Drop(GELU(W1·LN2(y)))). */
function residualTail(get: Getter, pre: string, x: tf.Tensor, context: tf.Tensor, drop?: SeededDropout): tf.Tensor {
  let attnOut = linear(context, get(`${pre}self_attn.out_proj.weight`), get(`${pre}self_attn.out_proj.bias`));
  if (drop) attnOut = drop.apply(attnOut);
  const y = tf.add(x, attnOut);
  const h2 = layerNorm(y, get(`${pre}norm2.weight`), get(`${pre}norm2.bias`));
  let ff = gelu(linear(h2, get(`${pre}linear1.weight`), get(`${pre}linear1.bias`)));
  if (drop) ff = drop.apply(ff);
  let ffOut = linear(ff, get(`${pre}linear2.weight`), get(`${pre}linear2.bias`));
  if (drop) ffOut = drop.apply(ffOut);
  return tf.add(y, ffOut);
}

/** [B, 1, 1, T]: 0 for real keys, MASKED for padding. */
function keyPaddingBias(lengths: tf.Tensor1D, T: number): tf.Tensor4D {
  const positions = tf.range(0, T, 1, 'int32').reshape([1, T]);
  const valid = tf.less(positions, tf.reshape(lengths, [-1, 1]));
  return tf.reshape(tf.mul(tf.sub(1, tf.cast(valid, 'float32')), MASKED), [-1, 1, 1, T]);
}

type Getter = (name: string) => tf.Tensor;

/** Queries, keys and values of the padded layer as heads [B·H, len, dh]; with `clsOnly` the queries of position 0 only. */
type Heads = (h: tf.Tensor, wIn: tf.Tensor, bIn: tf.Tensor, H: number, clsOnly: boolean) => [tf.Tensor, tf.Tensor, tf.Tensor];

/** One product and one slice of the weight per part: the reference (and the CPU path). */
const headsPerPart: Heads = (h, wIn, bIn, H, clsOnly) => {
  const [B, T, d] = h.shape;
  const dh = d / H;
  const part = (i: number, rows: tf.Tensor, len: number) => {
    const y = linear(rows, tf.slice(wIn, [i * d, 0], [d, d]), tf.slice(bIn, [i * d], [d]));
    return tf.reshape(tf.transpose(tf.reshape(y, [B, len, H, dh]), [0, 2, 1, 3]), [B * H, len, dh]);
  };
  return [part(0, clsOnly ? tf.slice(h, [0, 0, 0], [B, 1, d]) : h, clsOnly ? 1 : T), part(1, h, T), part(2, h, T)];
};

/**
 * The same from one product, split into heads by ops.qkvHeads (WebGPU: ~7 dispatches with the
 * gradients instead of ~30; the gradients' sums run in another order, so they round differently).
 * The last layer computes every position's query: its extra product rows cost less than dispatches.
 */
const headsFromOneProduct: Heads = (h, wIn, bIn, H, clsOnly) => qkvHeads(linear(h, wIn, bIn) as tf.Tensor3D, H, clsOnly);

/**
 * PyTorch TransformerEncoderLayer(norm_first=True, activation=gelu):
 * x + Drop(MHA(LN1(x))), then x + Drop(W2·Drop(GELU(W1·LN2(x)))).
 * With `clsOnly`, returns [B, d] for position 0 only (keys and values still span every position).
 */
function encoderLayer(cfg: ModelConfig, get: Getter, pre: string, x: tf.Tensor, keyMask: tf.Tensor, clsOnly: boolean, drop?: SeededDropout): tf.Tensor {
  const d = cfg.dModel;
  const H = cfg.nHeads;
  const dh = d / H;
  const [B, T] = x.shape;
  const h = layerNorm(x, get(`${pre}norm1.weight`), get(`${pre}norm1.bias`));
  const heads = tf.getBackend() === 'webgpu' ? headsFromOneProduct : headsPerPart;
  const [q, k, v] = heads(h, get(`${pre}self_attn.in_proj_weight`), get(`${pre}self_attn.in_proj_bias`), H, clsOnly);
  const Tq = clsOnly ? 1 : T;
  const raw = tf.reshape(matMul(q, k, false, true), [B, H, Tq, T]);
  let probs = maskedSoftmax(raw, 1 / Math.sqrt(dh), keyMask);
  if (drop) probs = drop.apply(probs);
  const attended = tf.reshape(matMul(tf.reshape(probs, [B * H, Tq, T]), v), [B, H, Tq, dh]);
  const context = tf.reshape(tf.transpose(attended, [0, 2, 1, 3]), [B, Tq, d]);
  const y = residualTail(get, pre, clsOnly ? tf.slice(x, [0, 0, 0], [B, 1, d]) : x, context, drop);
  return clsOnly ? tf.reshape(y, [B, d]) : y;
}
