import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import type { ModelConfig } from './config.ts';
import type { SeededDropout } from './dropout.ts';
import { type ModelOps, modelOps } from './ops.ts';
import { packedTokens } from './packedForward.ts';
import type { RowOrder } from '../kernels/rowSum/rowSum.ts';
import type { TokenLayout } from './tokenLayout.ts';

/** Any name → tensor map works (trainable variables, or plain tensors in tests). */
export type ParamTensors = ReadonlyMap<string, tf.Tensor>;

export interface EnergyInputs {
  /** int32 [B, T], CLS first, padded to T. */
  ids: tf.Tensor2D;
  /** int32 [B], true lengths; keys at t >= length are masked out of attention. */
  lengths: tf.Tensor1D;
  /** The same lengths on the host: the packed forward needs them to lay out its rows. */
  hostLengths?: Int32Array;
  /** The ids' positions grouped by embedding row (a WebGPU step's input): the embedding's gradient is then summed in a fixed order. */
  byRow?: RowOrder;
}

export interface ForwardOptions {
  /** Present only in training mode; eval mode has no dropout at all. */
  dropout?: SeededDropout;
  /** Receives intermediate activations (x0, layer{i}, cls, head_hidden) for parity tests. */
  inspect?: (name: string, t: tf.Tensor) => void;
  /** Run the packed forward (packedForward.ts); default: the backend profile's packedForward. */
  packed?: boolean;
  /** What runs where, handed to every op of this forward. */
  profile: BackendProfile;
}

/** Large enough that exp() underflows to exactly 0, finite so no NaN reaches any gradient. */
const MASKED = -1e9;

type Getter = (name: string) => tf.Tensor;

/**
 * TransEBM energies, one per candidate (lower = better), as python/eorm/model.py's TransEBM.forward:
 * token embedding × √d (no positional encoding by default), pre-LN encoder layers, and an MLP head on
 * the CLS output. The last layer is evaluated for the CLS query only: nothing else of it reaches the energy.
 */
export function energies(cfg: ModelConfig, p: ParamTensors, inputs: EnergyInputs, opts: ForwardOptions): tf.Tensor1D {
  return tf.tidy(() => {
    const get: Getter = (name) => {
      const t = p.get(name);
      if (!t) throw new Error(`parameter "${name}" is missing`);
      return t;
    };
    const [, T] = inputs.ids.shape;
    if (T > cfg.maxLen) throw new Error(`input length ${T} exceeds maxLen ${cfg.maxLen}`);
    // The one capability branch: the real tokens without padding, where every padded row costs CPU time.
    const { profile } = opts;
    const op = modelOps(profile);
    const packed = (opts.packed ?? profile.packedForward) && inputs.hostLengths !== undefined;
    const tokens = packed ? packedTokens(cfg, inputs.ids, Array.from(inputs.hostLengths!), op) : paddedTokens(cfg, inputs, op);
    let x = tf.mul(tokens.embed(get('emb.weight') as tf.Tensor2D), Math.sqrt(cfg.dModel));
    if (cfg.positional === 'learned') x = tf.add(x, tokens.positions(get('pos.weight') as tf.Tensor2D));
    opts.inspect?.('x0', tokens.padded(x));
    for (let i = 0; i < cfg.nLayers; i++) {
      const last = i === cfg.nLayers - 1;
      x = encoderLayer(cfg, op, get, `enc.layers.${i}.`, x, tokens, last, opts.dropout);
      if (!last) opts.inspect?.(`layer${i}`, tokens.padded(x));
    }
    // x is [B, d] now: the CLS rows of the last layer.
    opts.inspect?.('cls', x);
    const hidden = op.gelu(op.linear(op.layerNorm(x, get('head.0.weight'), get('head.0.bias')), get('head.1.weight'), get('head.1.bias')));
    opts.inspect?.('head_hidden', hidden);
    return tf.reshape(op.linear(hidden, get('head.3.weight'), get('head.3.bias')), [-1]) as tf.Tensor1D;
  });
}

/**
 * PyTorch TransformerEncoderLayer(norm_first=True, activation=gelu):
 * x + Drop(MHA(LN1(x))), then y + Drop(W2·Drop(GELU(W1·LN2(y)))).
 * With `clsOnly`, returns [B, d] for the CLS rows only (keys and values still span every token).
 */
function encoderLayer(
  cfg: ModelConfig,
  op: ModelOps,
  get: Getter,
  pre: string,
  x: tf.Tensor,
  tokens: TokenLayout,
  clsOnly: boolean,
  drop?: SeededDropout,
): tf.Tensor {
  const h = op.layerNorm(x, get(`${pre}norm1.weight`), get(`${pre}norm1.bias`));
  const context = tokens.attention(h, get(`${pre}self_attn.in_proj_weight`), get(`${pre}self_attn.in_proj_bias`), cfg.nHeads, clsOnly, drop?.site());
  // The three [.., width] dropouts below share the layer's row keys; each is its own site.
  const rows = tokens.dropoutRows(clsOnly);
  let attnOut = op.linear(context, get(`${pre}self_attn.out_proj.weight`), get(`${pre}self_attn.out_proj.bias`));
  if (drop) attnOut = drop.site().apply(attnOut, rows);
  const y = tf.add(clsOnly ? tokens.cls(x) : x, attnOut);
  let ff = op.gelu(op.linear(op.layerNorm(y, get(`${pre}norm2.weight`), get(`${pre}norm2.bias`)), get(`${pre}linear1.weight`), get(`${pre}linear1.bias`)));
  if (drop) ff = drop.site().apply(ff, rows);
  let ffOut = op.linear(ff, get(`${pre}linear2.weight`), get(`${pre}linear2.bias`));
  if (drop) ffOut = drop.site().apply(ffOut, rows);
  const out = tf.add(y, ffOut);
  return clsOnly ? tf.reshape(out, [-1, cfg.dModel]) : out;
}

/** The reference layout: [B, T, d], padding keys masked out of attention (PyTorch's key_padding_mask). */
function paddedTokens(cfg: ModelConfig, inputs: EnergyInputs, op: ModelOps): TokenLayout {
  const [B, T] = inputs.ids.shape;
  const d = cfg.dModel;
  // [B, 1, 1, T]: 0 for real keys, MASKED for padding.
  const valid = tf.less(tf.range(0, T, 1, 'int32').reshape([1, T]), tf.reshape(inputs.lengths, [-1, 1]));
  const keyMask = tf.reshape(tf.mul(tf.sub(1, tf.cast(valid, 'float32')), MASKED), [-1, 1, 1, T]);
  return {
    embed: (table) => op.gatherRows(table, inputs.ids, inputs.byRow),
    positions: (table) => tf.slice(table, [0, 0], [T, d]),
    padded: (x) => x,
    cls: (x) => tf.slice(x, [0, 0, 0], [B, 1, d]),
    // Row b·Tq + t is candidate b's token t (the CLS row alone: token 0).
    dropoutRows: (clsOnly) => ({ perCandidate: clsOnly ? 1 : T, inner: clsOnly ? 1 : T, stride: 0 }),
    attention: (h, wIn, bIn, H, clsOnly, drop) => {
      const dh = d / H;
      const Tq = clsOnly ? 1 : T;
      const [q, k, v] = op.attentionHeads(h, wIn, bIn, H, clsOnly);
      let probs = op.maskedSoftmax(tf.reshape(op.matMul(q, k, false, true), [B, H, Tq, T]), 1 / Math.sqrt(dh), keyMask);
      // Row (b, head h, query i) keys position h·maxLen + i, as the packed forward's blocks do.
      if (drop) probs = drop.apply(probs, { perCandidate: H * Tq, inner: Tq, stride: cfg.maxLen });
      const attended = tf.reshape(op.matMul(tf.reshape(probs, [B * H, Tq, T]), v), [B, H, Tq, dh]);
      return tf.reshape(tf.transpose(attended, [0, 2, 1, 3]), [B, Tq, d]);
    },
  };
}
