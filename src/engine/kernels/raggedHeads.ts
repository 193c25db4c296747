import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from './hostMemory.ts';
import { type KernelFamily, registerKernels } from './register.ts';

/**
 * Attention over candidates of different lengths without padding. Activations are packed: one row per
 * real token, candidates one after the other ([N, C], N = Σ lengths). splitHeads cuts heads·dh
 * columns from col0 of every candidate's rows into one [length, dh] block per (candidate, head),
 * candidate-major, or [dh, length] (`transpose`: keys, so Q·Kᵀ is a plain product); mergeHeads writes
 * [length, dh] blocks back into [N, heads·dh]. The cut and the paste are each other's gradient.
 *
 * The strided work is one Transpose kernel per layout (column groups of dh to planes: [C/dh, N, dh],
 * or [C/dh, dh, N]), shared by every part that uses it; after it each block is a contiguous run of a
 * plane (or dh runs), copied by a kernel registered for the CPU-memory backends. Copying row by row
 * in TypeScript, or slicing columns first, costs about as much as the attention's products.
 */
export interface Ragged {
  lengths: number[];
  heads: number;
  dh: number;
}

export interface HeadPart {
  col0: number;
  transpose?: boolean;
}

export function splitHeads(x: tf.Tensor, layout: Ragged, parts: HeadPart[]): tf.Tensor[][] {
  const [n, width] = x.shape as number[];
  const { lengths, heads, dh } = layout;
  if (width % dh !== 0 || parts.some((p) => p.col0 % dh !== 0 || p.col0 + heads * dh > width)) throw new Error(`splitHeads: columns ${width} and parts ${JSON.stringify(parts)} do not fall on whole heads of ${dh}`);
  return tf.tidy(() => {
    const groups = tf.reshape(x, [n, width / dh, dh]);
    const planes: Partial<Record<Mode, tf.Tensor>> = {};
    const plane = (mode: Mode) => (planes[mode] ??= tf.transpose(groups, mode === 'rows' ? [1, 0, 2] : [1, 2, 0]));
    return parts.map((p) => {
      const mode = p.transpose ? 'cols' : 'rows';
      return cutBlocks(plane(mode), { lengths, mode, first: p.col0 / dh, count: heads, planes: width / dh, width: dh });
    });
  });
}

export function mergeHeads(blocks: tf.Tensor[], layout: Ragged): tf.Tensor {
  const { lengths, heads, dh } = layout;
  const n = lengths.reduce((a, c) => a + c, 0);
  return tf.tidy(() => tf.reshape(tf.transpose(pasteBlocks(blocks, { lengths, mode: 'rows', first: 0, count: heads, planes: heads, width: dh }), [1, 0, 2]), [n, heads * dh]));
}

/**
 * Planes [P, N, w] ('rows') or [P, w, N] ('cols'). Block (b, p) for p in first … first + count is
 * rows off_b … off_b + len_b of plane p ([len_b, w]), or those columns ([w, len_b]); candidate-major.
 */
type Mode = 'rows' | 'cols';
interface BlockAttrs {
  lengths: number[];
  mode: Mode;
  first: number;
  count: number;
  planes: number;
  width: number;
}

function cutBlocks(planes: tf.Tensor, a: BlockAttrs): tf.Tensor[] {
  return tf.engine().runKernel(CUT, { x: planes }, a as unknown as tf.NamedAttrMap) as unknown as tf.Tensor[];
}

function pasteBlocks(blocks: tf.Tensor[], a: BlockAttrs): tf.Tensor {
  const inputs: tf.NamedTensorMap = {};
  blocks.forEach((p, i) => (inputs[`p${i}`] = p));
  return tf.engine().runKernel(PASTE, inputs, a as unknown as tf.NamedAttrMap) as tf.Tensor;
}

const CUT = 'EormCutBlocks';
const PASTE = 'EormPasteBlocks';

/** Calls `run` for each contiguous run that a block shares with its plane: the block, both offsets, the length. */
function forEachRun(a: BlockAttrs, n: number, run: (block: number, planeAt: number, blockAt: number, count: number) => void): void {
  let off = 0;
  a.lengths.forEach((len, b) => {
    for (let h = 0; h < a.count; h++) {
      const block = b * a.count + h;
      const plane = (a.first + h) * n * a.width;
      if (a.mode === 'rows') run(block, plane + off * a.width, 0, len * a.width);
      else for (let j = 0; j < a.width; j++) run(block, plane + j * n + off, j * len, len);
    }
    off += len;
  });
}

/** The cut and the paste on the CPU-memory backends, each the other's gradient. */
export const RAGGED_HEADS_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: CUT,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const a = attrs as unknown as BlockAttrs;
        const mem = hostMemory(backend);
        const n = a.lengths.reduce((s, c) => s + c, 0);
        const outs = a.lengths.flatMap((len) => Array.from({ length: a.count }, () => mem.alloc(a.mode === 'rows' ? [len, a.width] : [a.width, len])));
        const src = mem.floats((inputs as { x: tf.TensorInfo }).x);
        const dsts = outs.map((o) => mem.floats(o));
        forEachRun(a, n, (block, planeAt, blockAt, count) => dsts[block].set(src.subarray(planeAt, planeAt + count), blockAt));
        return outs;
      },
    },
    {
      kernelName: PASTE,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const a = attrs as unknown as BlockAttrs;
        const mem = hostMemory(backend);
        const n = a.lengths.reduce((s, c) => s + c, 0);
        const out = mem.alloc(a.mode === 'rows' ? [a.planes, n, a.width] : [a.planes, a.width, n]);
        const dst = mem.floats(out);
        // Planes outside first … first + count get no block: zero (a gradient has nothing there).
        if (a.count < a.planes) dst.fill(0);
        const srcs = Array.from({ length: a.lengths.length * a.count }, (_, i) => mem.floats((inputs as Record<string, tf.TensorInfo>)[`p${i}`]));
        forEachRun(a, n, (block, planeAt, blockAt, count) => dst.set(srcs[block].subarray(blockAt, blockAt + count), planeAt));
        return out;
      },
    },
  ],
  gradients: [
    {
      kernelName: CUT,
      gradFunc: (dys, _saved, attrs) => ({ x: () => pasteBlocks(dys as tf.Tensor[], attrs as unknown as BlockAttrs) }),
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

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw.ts).
registerKernels(HOST_BACKENDS, RAGGED_HEADS_HOST);
