import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../../backend/profile.ts';
import { pairTableValues } from '../../kernels/btLoss/webgpu.ts';
import { rowOrderValues } from '../../kernels/rowSum/rowSum.ts';
import { type HostInput, type StepIO, runPlain, stepReplay } from '../../kernels/webgpu/replay/stepReplay.ts';
import { type AdamW, EMBEDDING } from '../../model/adamw.ts';
import { bothFinite, clipCoefficient, globalNorm } from '../../model/clip.ts';
import type { ModelConfig } from '../../model/config.ts';
import { pairGroups } from '../../model/loss.ts';
import type { Params } from '../../model/params.ts';
import { chunkRanges } from '../../model/batch.ts';
import { compactBatch } from './compactBatch.ts';
import type { StepBatch } from './gradients.ts';
import { lossAndGradients } from './gradients.ts';
import { bucketUp, padLength } from '../../model/shapeBuckets.ts';

export interface WebGpuStepOptions {
  lr: number;
  maxGradNorm: number;
  microBatch?: number;
  dropoutSeed?: number;
  profile: BackendProfile;
  /** Recorded once per shape and replayed (the 'replayed' step variant), else run through tfjs. */
  replayed: boolean;
}

/**
 * The WebGPU training step (the optimizer's 'flat' variant): a compact table of the embedding rows the
 * step's tokens use is gathered on the device and trained, every gradient and the AdamW update stay on
 * the device, nothing is read back. Everything the step's GPU work depends on besides the weights comes
 * in as inputs made on the host here — token ids and lengths per chunk (with the ids' positions grouped
 * by row, for an embedding gradient summed in a fixed order), the table's rows, the pair table, the
 * dropout seed, AdamW's hyper-parameters for this step — padded to a few shapes (shapeBuckets.ts):
 * candidates to a bucket (the extra ones carry no loss), lengths to a bucket, the table to as many rows
 * as the step could use. So the 'replayed' variant records the step once per shape and
 * replays it after (replay/stepReplay.ts); without it, the same body runs through tfjs every time.
 * Returns the loss, gradient norm and clip coefficient, on the device.
 */
export function webgpuStep(cfg: ModelConfig, params: Params, optimizer: AdamW, batch: StepBatch, opts: WebGpuStepOptions): tf.Tensor[] {
  const emb = params.get(EMBEDDING)!;
  const vocab = emb.shape[0]!;
  const compact = compactBatch(batch, cfg.padId, vocab);
  const n = bucketUp(batch.candidates.length);
  const chunks = chunkRanges(n, opts.microBatch ?? n);
  // The extra candidates: the pad token alone, incorrect, in a group of their own (no pair, no loss).
  const candidates = [...compact.batch.candidates];
  const labels = Array.from(batch.labels);
  const groupOf = Array.from(batch.groupOf);
  const spare = Math.max(-1, ...groupOf) + 1;
  while (candidates.length < n) {
    candidates.push(Int32Array.of(compact.padId));
    labels.push(0);
    groupOf.push(spare);
  }
  const padded: StepBatch = { candidates, labels, groupOf };
  const chunkShapes = chunks.map(([s, e]) => {
    let longest = 1;
    for (let i = s; i < e; i++) longest = Math.max(longest, candidates[i].length);
    return { s, e, T: padLength(longest, cfg.maxLen, true) };
  });
  // As many rows as the step's padded tokens could use, the last real row repeated (the update looks rows up by binary search: it finds the first).
  const rowCount = Math.min(vocab, chunkShapes.reduce((a, c) => a + (c.e - c.s) * c.T, 0) + 1);
  const rows = new Int32Array(rowCount).fill(compact.rows[compact.rows.length - 1]);
  rows.set(compact.rows);
  const hyper = optimizer.beginStep(opts.lr);
  const inputs: HostInput[] = [
    { data: rows, shape: [rowCount] },
    { data: pairTableValues(pairGroups(labels, groupOf)), shape: [n, 3] },
    { data: Int32Array.of((opts.dropoutSeed ?? 0) | 0), shape: [1] },
    { data: hyper, shape: [3] },
  ];
  for (const { s, e, T } of chunkShapes) {
    const ids = new Int32Array((e - s) * T).fill(compact.padId);
    const lengths = new Int32Array(e - s);
    for (let i = s; i < e; i++) {
      ids.set(candidates[i], (i - s) * T);
      lengths[i - s] = candidates[i].length;
    }
    // Which positions hold each table row: the embedding's gradient sums them in this fixed order (kernels/rowSum/).
    const { order, starts } = rowOrderValues(ids, rowCount);
    inputs.push(
      { data: ids, shape: [e - s, T] },
      { data: lengths, shape: [e - s] },
      { data: order, shape: [order.length] },
      { data: starts, shape: [rowCount + 1] },
    );
  }
  const training = opts.dropoutSeed !== undefined && cfg.dropout > 0;
  const key = `train ${n}×[${chunkShapes.map((c) => `${c.e - c.s}×${c.T}`).join(',')}] rows ${rowCount}${training ? ' dropout' : ''} clip ${opts.maxGradNorm}`;
  const io: StepIO = { inputs, externals: [...params.values(), optimizer.flat!.buffer] };
  const body = ([rowsT, pairT, seedT, hyperT, ...chunkT]: tf.Tensor[]): tf.Tensor[] => {
    const table = tf.variable(tf.gather(emb, rowsT), true, `${EMBEDDING}.compact#${compactCounter++}`);
    try {
      const stepParams: Params = new Map(params);
      stepParams.set(EMBEDDING, table);
      const { loss, grads } = lossAndGradients({ ...cfg, padId: compact.padId }, stepParams, padded, {
        microBatch: opts.microBatch,
        dropoutSeed: training ? seedT : undefined,
        profile: opts.profile,
        chunkInputs: (c) => {
          const [ids, lengths, order, starts] = chunkT.slice(4 * c, 4 * c + 4) as [tf.Tensor2D, tf.Tensor1D, tf.Tensor1D, tf.Tensor1D];
          return { ids, lengths, byRow: { order, starts } };
        },
        pairTable: pairT as tf.Tensor2D,
      });
      const gradNorm = globalNorm(grads.values(), opts.profile);
      const clipCoef = clipCoefficient(gradNorm, opts.maxGradNorm, opts.profile);
      optimizer.stepFlat(params, grads, hyperT as tf.Tensor1D, clipCoef, bothFinite(loss, gradNorm, opts.profile), rowsT as tf.Tensor1D);
      return [loss, gradNorm, clipCoef];
    } finally {
      table.dispose();
    }
  };
  return opts.replayed ? stepReplay().run(key, io, body) : runPlain(io, body);
}

let compactCounter = 0;
