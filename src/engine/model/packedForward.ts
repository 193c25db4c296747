import * as tf from '@tensorflow/tfjs';
import type { DropoutRows } from '../kernels/dropout/keys.ts';
import { mergeHeads, splitHeads } from '../kernels/raggedHeads/host.ts';
import type { ModelConfig } from './config.ts';
import type { ModelOps } from './ops.ts';
import type { DropoutSite } from './dropout.ts';
import type { TokenLayout } from './tokenLayout.ts';

/**
 * The packed layout: the real tokens of all candidates in one [N, d] matrix, candidate after candidate
 * (no padded rows), and attention per (candidate, head) block on exactly that candidate's rows, so no
 * key needs masking. The same maths as the padded reference, for backends where every padded row costs
 * CPU time (the profile's packedForward). `lengths`: the candidates' true lengths, on the host.
 */
export function packedTokens(cfg: ModelConfig, paddedIds: tf.Tensor2D, lengths: number[], op: ModelOps): TokenLayout {
  const [B, T] = paddedIds.shape;
  const d = cfg.dModel;
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
  const cls = tf.tensor1d(clsRows, 'int32');
  // Dropout keys per row (kernels/dropout/keys.ts): candidate and token; a CLS row is its candidate's token 0.
  // Made on first use: scoring has no dropout.
  let tokenKeys: DropoutRows | null = null;
  const clsKeys = () => ({ candidate: Int32Array.from(lengths, (_, b) => b), position: new Int32Array(lengths.length) });
  // Attention probabilities: row i of candidate b's block for head j keys the dropout as position
  // j·maxLen + i (i = 0: the CLS query), whatever the chunk's padded length.
  const probKeys = (b: number, positions: Int32Array) => ({ candidate: new Int32Array(positions.length).fill(b), position: positions });
  /**
   * The last layer's attention for the CLS queries, without a key or value for any token. A CLS query q
   * scores token t as q·(W_k h_t + b_k) = (W_kᵀq)·h_t + q·b_k, whose last term is the same for every t
   * (softmax drops it), and its context is Σ_t p_t (W_v h_t + b_v) = W_v (Σ_t p_t h_t) + b_v Σ_t p_t.
   * A token then costs 2·heads·d multiply-adds instead of the 2d² of its key and value.
   */
  const clsAttention = (h: tf.Tensor2D, wIn: tf.Tensor, bIn: tf.Tensor, H: number, s: number, drop?: DropoutSite): tf.Tensor => {
    const dh = d / H;
    const [wq, wk, wv] = [0, 1, 2].map((i) => tf.slice(wIn, [i * d, 0], [d, d]));
    // b_k drops out of the scores (see above).
    const [bq, bv] = [0, 2].map((i) => tf.slice(bIn, [i * d], [d]));
    const q = op.linear(op.gatherRows(h, cls), tf.mul(wq, s), tf.mul(bq, s));
    // Row (b, head) of [B·H, d]: candidate b's query in that head's columns, zeros elsewhere; times W_k, it
    // is that head's W_kᵀq.
    const heads = tf.tensor3d(
      Float32Array.from({ length: H * d }, (_, i) => (Math.floor((i % d) / dh) === Math.floor(i / d) ? 1 : 0)),
      [1, H, d],
    );
    const u = op.matMul(tf.reshape(tf.mul(tf.reshape(q, [B, 1, d]), heads), [B * H, d]), wk);
    // Each candidate's rows, and its heads' rows of u: one strided copy each, and their gradients one paste.
    const rowsOf = splitHeads(h, { lengths, heads: 1, dh: d }, [{ col0: 0 }])[0];
    const uOf = splitHeads(u, { lengths: lengths.map(() => H), heads: 1, dh: d }, [{ col0: 0 }])[0];
    const weighted: tf.Tensor[] = [];
    const mass: tf.Tensor[] = [];
    rowsOf.forEach((hb, b) => {
      let probs = tf.softmax(op.matMul(uOf[b], hb, false, true));
      if (drop)
        probs = drop.apply(
          probs,
          probKeys(
            b,
            Int32Array.from({ length: H }, (_, j) => j * cfg.maxLen),
          ),
        );
      weighted.push(op.matMul(probs, hb));
      mass.push(tf.sum(probs, 1));
    });
    // Σ_t p_t h_t of every (candidate, head) times all of W_v; each head keeps its own columns.
    const all = tf.reshape(op.matMul(tf.concat(weighted), wv, false, true), [B, H, H, dh]);
    const own = tf.sum(tf.mul(all, tf.reshape(tf.eye(H), [1, H, H, 1])), 1);
    return tf.reshape(tf.add(own, tf.mul(tf.reshape(bv, [1, H, dh]), tf.reshape(tf.stack(mass), [B, H, 1]))), [B, d]);
  };
  return {
    embed: (table) => op.gatherRows(table, tf.gather(tf.reshape(paddedIds, [-1]), tf.tensor1d(rows, 'int32'))),
    positions: (table) => op.gatherRows(table, tf.tensor1d(positions, 'int32')),
    // Padded rows read as zeros.
    padded: (x) => {
      const index = new Int32Array(B * T).fill(rows.length);
      rows.forEach((r, i) => (index[r] = i));
      return tf.reshape(tf.gather(tf.concat([x, tf.zeros([1, d])]), tf.tensor1d(index, 'int32')), [B, T, d]);
    },
    cls: (x) => op.gatherRows(x as tf.Tensor2D, cls),
    dropoutRows: (clsOnly) =>
      clsOnly ? clsKeys() : (tokenKeys ??= { candidate: Int32Array.from(rows, (r) => Math.floor(r / T)), position: Int32Array.from(positions) }),
    attention: (h, wIn, bIn, H, clsOnly, drop) => {
      const dh = d / H;
      // The queries' 1/√dh is folded into their projection (a [d, d] product instead of every score block).
      const s = 1 / Math.sqrt(dh);
      if (clsOnly) return clsAttention(h as tf.Tensor2D, wIn, bIn, H, s, drop);
      const layout = { lengths, heads: H, dh };
      const rowScale = tf.concat([tf.fill([d, 1], s), tf.ones([2 * d, 1])]);
      const qkv = op.linear(h, tf.mul(wIn, rowScale), tf.mul(bIn, tf.reshape(rowScale, [-1])));
      const [q, k, v] = splitHeads(qkv, layout, [{ col0: 0 }, { col0: d }, { col0: 2 * d }]);
      // Block j is candidate b = j / H, head j % H.
      const context = q.map((qi, j) => {
        const b = Math.floor(j / H);
        let probs = tf.softmax(op.matMul(qi, k[j], false, true));
        if (drop)
          probs = drop.apply(
            probs,
            probKeys(
              b,
              Int32Array.from({ length: lengths[b] }, (_, i) => (j % H) * cfg.maxLen + i),
            ),
          );
        return op.matMul(probs, v[j]);
      });
      return mergeHeads(context, layout);
    },
  };
}
