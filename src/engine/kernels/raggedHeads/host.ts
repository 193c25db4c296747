import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { simdCopyRuns } from './wasm.ts';

/**
 * Attention over candidates of different lengths without padding. Activations are packed: one row per
 * real token, candidates one after the other ([N, C], N = Σ lengths). splitHeads cuts heads·dh
 * columns from col0 of every candidate's rows into one [length, dh] block per (candidate, head),
 * candidate-major; mergeHeads writes [length, dh] blocks back into [N, heads·dh]. The cut and the paste
 * are each other's gradient. A block is `length` runs of dh values, one per row: one strided copy, in
 * WebAssembly SIMD on tfjs-wasm (wasm.ts) where dh is a multiple of 4.
 */
export interface Ragged {
  lengths: number[];
  heads: number;
  dh: number;
}

export interface HeadPart {
  col0: number;
}

export function splitHeads(x: tf.Tensor, layout: Ragged, parts: HeadPart[]): tf.Tensor[][] {
  const width = x.shape[1]!;
  const { lengths, heads, dh } = layout;
  if (parts.some((p) => p.col0 + heads * dh > width))
    throw new Error(`splitHeads: columns ${width} and parts ${JSON.stringify(parts)} do not hold ${heads} heads of ${dh}`);
  return parts.map((p) => cutBlocks(x, { lengths, col0: p.col0, heads, dh, width }));
}

export function mergeHeads(blocks: tf.Tensor[], layout: Ragged): tf.Tensor {
  const { lengths, heads, dh } = layout;
  return pasteBlocks(blocks, { lengths, col0: 0, heads, dh, width: heads * dh });
}

/** Block (b, h): the rows of candidate b, columns col0 + h·dh … col0 + (h + 1)·dh of a [N, width] matrix. */
interface BlockAttrs {
  lengths: number[];
  col0: number;
  heads: number;
  dh: number;
  width: number;
}

function cutBlocks(x: tf.Tensor, a: BlockAttrs): tf.Tensor[] {
  const out = tf.engine().runKernel(CUT, { x }, a as unknown as tf.NamedAttrMap) as tf.Tensor | tf.Tensor[];
  // A kernel with one output returns it alone.
  return Array.isArray(out) ? out : [out];
}

function pasteBlocks(blocks: tf.Tensor[], a: BlockAttrs): tf.Tensor {
  const inputs: tf.NamedTensorMap = {};
  blocks.forEach((p, i) => (inputs[`p${i}`] = p));
  return tf.engine().runKernel(PASTE, inputs, a as unknown as tf.NamedAttrMap) as tf.Tensor;
}

const CUT = 'EormCutBlocks';
const PASTE = 'EormPasteBlocks';

/**
 * Calls `copy` for each block with its matrix's first value and its block's views: the matrix's rows
 * are `width` apart, the block's `dh`.
 */
function forEachBlock(a: BlockAttrs, copy: (block: number, at: number, rows: number) => void): void {
  let off = 0;
  a.lengths.forEach((len, b) => {
    for (let h = 0; h < a.heads; h++) copy(b * a.heads + h, off * a.width + a.col0 + h * a.dh, len);
    off += len;
  });
}

/** `rows` runs of `run` values: from `src` at `s`, `srcStride` apart, to `dst` at `d`, `dstStride` apart. */
function copyRows(
  backend: unknown,
  src: Float32Array,
  s: number,
  srcStride: number,
  dst: Float32Array,
  d: number,
  dstStride: number,
  rows: number,
  run: number,
): void {
  const simd = run % 4 === 0 ? simdCopyRuns(backend) : null;
  if (simd) return simd(src.byteOffset + 4 * s, 4 * srcStride, dst.byteOffset + 4 * d, 4 * dstStride, rows, 4 * run);
  for (let r = 0; r < rows; r++) dst.set(src.subarray(s + r * srcStride, s + r * srcStride + run), d + r * dstStride);
}

/** The cut and the paste on the CPU-memory backends, each the other's gradient. */
export const RAGGED_HEADS_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: CUT,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const a = attrs as unknown as BlockAttrs;
        const mem = hostMemory(backend);
        const outs = a.lengths.flatMap((len) => Array.from({ length: a.heads }, () => mem.alloc([len, a.dh])));
        const src = mem.floats((inputs as { x: tf.TensorInfo }).x);
        const dsts = outs.map((o) => mem.floats(o));
        forEachBlock(a, (block, at, rows) => copyRows(backend, src, at, a.width, dsts[block], 0, a.dh, rows, a.dh));
        return outs;
      },
    },
    {
      kernelName: PASTE,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const a = attrs as unknown as BlockAttrs;
        const mem = hostMemory(backend);
        const n = a.lengths.reduce((s, c) => s + c, 0);
        const out = mem.alloc([n, a.width]);
        const dst = mem.floats(out);
        // Columns outside the blocks get none: zero (a gradient has nothing there).
        if (a.heads * a.dh < a.width) dst.fill(0);
        const srcs = Array.from({ length: a.lengths.length * a.heads }, (_, i) => mem.floats((inputs as Record<string, tf.TensorInfo>)[`p${i}`]));
        forEachBlock(a, (block, at, rows) => copyRows(backend, srcs[block], 0, a.dh, dst, at, a.width, rows, a.dh));
        return out;
      },
    },
  ],
  gradients: [
    {
      kernelName: CUT,
      gradFunc: (dys, _saved, attrs) => ({ x: () => pasteBlocks(Array.isArray(dys) ? dys : [dys], attrs as unknown as BlockAttrs) }),
    },
    {
      kernelName: PASTE,
      gradFunc: (dy, _saved, attrs) => {
        // Cut once, here: the engine calls each input's function inside its own tidy, which would
        // dispose blocks made lazily in the first call before the others are returned.
        const parts = cutBlocks(dy as tf.Tensor, attrs as unknown as BlockAttrs);
        return Object.fromEntries(parts.map((p, i) => [`p${i}`, () => p]));
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw/).
registerKernels(HOST_BACKENDS, RAGGED_HEADS_HOST);
