import * as tf from '@tensorflow/tfjs';
import type { DropoutRows } from '../kernels/hostDropout.ts';
import { mergeHeads, splitHeads } from '../kernels/raggedHeads.ts';
import type { ModelConfig } from './config.ts';
import { gatherRows, linear, matMul } from './ops.ts';
import type { TokenLayout } from './tokenLayout.ts';

/**
 * The packed layout: the real tokens of all candidates in one [N, d] matrix, candidate after candidate
 * (no padded rows), and attention per (candidate, head) block on exactly that candidate's rows, so no
 * key needs masking. The same maths as the padded reference, for backends where every padded row costs
 * CPU time (the profile's packedForward). `lengths`: the candidates' true lengths, on the host.
 */
export function packedTokens(cfg: ModelConfig, paddedIds: tf.Tensor2D, lengths: number[]): TokenLayout {
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
  // Dropout keys per row (kernels/hostDropout.ts): candidate and token; a CLS row is its candidate's token 0.
  // Made on first use: scoring has no dropout.
  let tokenKeys: DropoutRows | null = null;
  const clsKeys = () => ({ candidate: Int32Array.from(lengths, (_, b) => b), position: new Int32Array(lengths.length) });
  return {
    embed: (table) => gatherRows(table, tf.gather(tf.reshape(paddedIds, [-1]), tf.tensor1d(rows, 'int32'))),
    positions: (table) => gatherRows(table, tf.tensor1d(positions, 'int32')),
    // Padded rows read as zeros.
    padded: (x) => {
      const index = new Int32Array(B * T).fill(rows.length);
      rows.forEach((r, i) => (index[r] = i));
      return tf.reshape(tf.gather(tf.concat([x, tf.zeros([1, d])]), tf.tensor1d(index, 'int32')), [B, T, d]);
    },
    cls: (x) => gatherRows(x as tf.Tensor2D, cls),
    dropoutRows: (clsOnly) => (clsOnly ? clsKeys() : (tokenKeys ??= { candidate: Int32Array.from(rows, (r) => Math.floor(r / T)), position: Int32Array.from(positions) })),
    attention: (h, wIn, bIn, H, clsOnly, drop) => {
      const dh = d / H;
      const layout = { lengths, heads: H, dh };
      const queries = { ...layout, lengths: clsOnly ? lengths.map(() => 1) : lengths };
      // The queries' 1/√dh is folded into their projection (a [d, d] product instead of every score block).
      const s = 1 / Math.sqrt(dh);
      let q: tf.Tensor[];
      let k: tf.Tensor[];
      let v: tf.Tensor[];
      if (clsOnly) {
        const qCls = linear(gatherRows(h as tf.Tensor2D, cls), tf.mul(tf.slice(wIn, [0, 0], [d, d]), s), tf.mul(tf.slice(bIn, [0], [d]), s));
        const kv = linear(h, tf.slice(wIn, [d, 0], [2 * d, d]), tf.slice(bIn, [d], [2 * d]));
        [q] = splitHeads(qCls, queries, [{ col0: 0 }]);
        [k, v] = splitHeads(kv, layout, [{ col0: 0 }, { col0: d }]);
      } else {
        const rowScale = tf.concat([tf.fill([d, 1], s), tf.ones([2 * d, 1])]);
        const qkv = linear(h, tf.mul(wIn, rowScale), tf.mul(bIn, tf.reshape(rowScale, [-1])));
        [q, k, v] = splitHeads(qkv, layout, [{ col0: 0 }, { col0: d }, { col0: 2 * d }]);
      }
      // Block j is candidate b = j / H, head j % H; its query row i (0: the CLS query) keys the dropout
      // as position head·maxLen + i, whatever the chunk's padded length.
      const blockKeys = (j: number) => {
        const b = Math.floor(j / H);
        const rowsOf = queries.lengths[b];
        return { candidate: new Int32Array(rowsOf).fill(b), position: Int32Array.from({ length: rowsOf }, (_, i) => (j % H) * cfg.maxLen + i) };
      };
      const context = q.map((qi, j) => {
        let probs = tf.softmax(matMul(qi, k[j], false, true));
        if (drop) probs = drop.apply(probs, blockKeys(j));
        return matMul(probs, v[j]);
      });
      return mergeHeads(context, queries);
    },
  };
}
