import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from './hostMemory.ts';

/**
 * Attention over candidates of different lengths without padding. Activations are packed: one row per
 * real token, candidates one after the other ([N, C], N = Σ lengths). splitHeads cuts columns
 * col0 … col0 + heads·dh of every candidate's rows into one [length, dh] block per (candidate, head),
 * candidate-major; mergeHeads writes such blocks back into a zero [N, width] matrix. Each is the
 * other's gradient. Registered for the CPU-memory backends (one strided copy per call).
 */
export interface HeadLayout {
  lengths: number[];
  col0: number;
  heads: number;
  dh: number;
  /** Blocks as [dh, length] (keys for Q·Kᵀ as a plain product, no Transpose kernel per block). */
  transpose?: boolean;
  /** Multiplies the blocks (the queries' 1/√dh, applied while copying instead of per score block). */
  scale?: number;
}

export function splitHeads(x: tf.Tensor, layout: HeadLayout): tf.Tensor[] {
  ensureRegistered();
  // The width rides along as an attribute: the gradient (a merge) needs it.
  return tf.engine().runKernel(SPLIT, { x }, { ...layout, width: x.shape[1] } as unknown as tf.NamedAttrMap) as unknown as tf.Tensor[];
}

export function mergeHeads(parts: tf.Tensor[], layout: HeadLayout, width: number): tf.Tensor {
  ensureRegistered();
  const inputs: tf.NamedTensorMap = {};
  parts.forEach((p, i) => (inputs[`p${i}`] = p));
  return tf.engine().runKernel(MERGE, inputs, { ...layout, width } as unknown as tf.NamedAttrMap) as tf.Tensor;
}

const SPLIT = 'EormSplitHeads';
const MERGE = 'EormMergeHeads';
let registered = false;

/** Row offsets of the candidates in the packed matrix. */
function offsets(lengths: number[]): number[] {
  const out = [0];
  for (const l of lengths) out.push(out[out.length - 1] + l);
  return out;
}

/**
 * Block (b, h) entry (t, j) ↔ packed entry (off[b] + t, col0 + h·dh + j), times `scale` on the way to
 * the block; a transposed block holds it at (j, t). Plain loops: a typed-array view per row costs
 * more than copying its dh values.
 */
function splitInto(src: Float32Array, width: number, l: HeadLayout, outs: Float32Array[]): void {
  const off = offsets(l.lengths);
  const scale = l.scale ?? 1;
  l.lengths.forEach((len, b) => {
    for (let h = 0; h < l.heads; h++) {
      const dst = outs[b * l.heads + h];
      const c = l.col0 + h * l.dh;
      for (let t = 0; t < len; t++) {
        const row = (off[b] + t) * width + c;
        if (l.transpose) for (let j = 0; j < l.dh; j++) dst[j * len + t] = src[row + j] * scale;
        else for (let j = 0; j < l.dh; j++) dst[t * l.dh + j] = src[row + j] * scale;
      }
    }
  });
}

/** The adjoint of splitInto: the same entries back, times the same scale (so each is the other's gradient). */
function mergeInto(parts: Float32Array[], width: number, l: HeadLayout, dst: Float32Array): void {
  const off = offsets(l.lengths);
  const scale = l.scale ?? 1;
  l.lengths.forEach((len, b) => {
    for (let h = 0; h < l.heads; h++) {
      const src = parts[b * l.heads + h];
      const c = l.col0 + h * l.dh;
      for (let t = 0; t < len; t++) {
        const row = (off[b] + t) * width + c;
        if (l.transpose) for (let j = 0; j < l.dh; j++) dst[row + j] = src[j * len + t] * scale;
        else for (let j = 0; j < l.dh; j++) dst[row + j] = src[t * l.dh + j] * scale;
      }
    }
  });
}

type Info = tf.TensorInfo;

function ensureRegistered(): void {
  if (registered) return;
  registered = true;
  for (const backendName of HOST_BACKENDS) {
    tf.registerKernel({
      kernelName: SPLIT,
      backendName,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const l = attrs as unknown as HeadLayout;
        const x = (inputs as { x: Info }).x;
        const mem = hostMemory(backend, backendName);
        const outs = l.lengths.flatMap((len) => Array.from({ length: l.heads }, () => mem.alloc(l.transpose ? [l.dh, len] : [len, l.dh])));
        splitInto(mem.floats(x), x.shape[1], l, outs.map((o) => mem.floats(o)));
        return outs;
      },
    });
    tf.registerKernel({
      kernelName: MERGE,
      backendName,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const l = attrs as unknown as HeadLayout & { width: number };
        const mem = hostMemory(backend, backendName);
        const n = l.lengths.reduce((a, c) => a + c, 0);
        const out = mem.alloc([n, l.width]);
        const dst = mem.floats(out);
        dst.fill(0);
        const parts = Object.keys(inputs).map((_, i) => mem.floats((inputs as Record<string, Info>)[`p${i}`]));
        mergeInto(parts, l.width, l, dst);
        return out;
      },
    });
  }
  tf.registerGradient({
    kernelName: SPLIT,
    gradFunc: (dys, _saved, attrs) => {
      const l = attrs as unknown as HeadLayout & { width: number };
      return { x: () => mergeHeads(dys as tf.Tensor[], l, l.width) };
    },
  });
  tf.registerGradient({
    kernelName: MERGE,
    gradFunc: (dy, _saved, attrs) => {
      // Split once, here: the engine calls each input's function inside its own tidy, which would
      // dispose blocks made lazily in the first call before the others are returned.
      const parts = splitHeads(dy as tf.Tensor, attrs as unknown as HeadLayout);
      return Object.fromEntries(parts.map((p, i) => [`p${i}`, () => p]));
    },
  });
}
