import * as tf from '@tensorflow/tfjs';

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

function splitInto(src: Float32Array, width: number, l: HeadLayout, outs: Float32Array[]): void {
  const off = offsets(l.lengths);
  l.lengths.forEach((len, b) => {
    for (let h = 0; h < l.heads; h++) {
      const dst = outs[b * l.heads + h];
      const c = l.col0 + h * l.dh;
      for (let t = 0; t < len; t++) {
        const row = (off[b] + t) * width + c;
        dst.set(src.subarray(row, row + l.dh), t * l.dh);
      }
    }
  });
}

function mergeInto(parts: Float32Array[], width: number, l: HeadLayout, dst: Float32Array): void {
  const off = offsets(l.lengths);
  l.lengths.forEach((len, b) => {
    for (let h = 0; h < l.heads; h++) {
      const src = parts[b * l.heads + h];
      const c = l.col0 + h * l.dh;
      for (let t = 0; t < len; t++) dst.set(src.subarray(t * l.dh, (t + 1) * l.dh), (off[b] + t) * width + c);
    }
  });
}

type Info = tf.TensorInfo;
/** Typed-array access to a backend's tensors: allocate outputs first, then take views (a heap may grow). */
interface Memory {
  alloc(shape: number[]): Info;
  view(t: Info): Float32Array;
}

function memory(backend: unknown, name: string): Memory {
  if (name === 'wasm') {
    const b = backend as { makeOutput(s: number[], d: 'float32'): Info; typedArrayFromHeap(t: Info): Float32Array };
    return { alloc: (s) => b.makeOutput(s, 'float32'), view: (t) => b.typedArrayFromHeap(t) };
  }
  const b = backend as { data: { get(id: unknown): { values: Float32Array } }; makeTensorInfo(s: number[], d: 'float32', v: Float32Array): Info };
  return {
    alloc: (s) => b.makeTensorInfo(s, 'float32', new Float32Array(s.reduce((a, c) => a * c, 1))),
    view: (t) => b.data.get(t.dataId).values,
  };
}

function ensureRegistered(): void {
  if (registered) return;
  registered = true;
  for (const backendName of ['cpu', 'wasm']) {
    tf.registerKernel({
      kernelName: SPLIT,
      backendName,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const l = attrs as unknown as HeadLayout;
        const x = (inputs as { x: Info }).x;
        const mem = memory(backend, backendName);
        const outs = l.lengths.flatMap((len) => Array.from({ length: l.heads }, () => mem.alloc([len, l.dh])));
        splitInto(mem.view(x), x.shape[1], l, outs.map((o) => mem.view(o)));
        return outs;
      },
    });
    tf.registerKernel({
      kernelName: MERGE,
      backendName,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const l = attrs as unknown as HeadLayout & { width: number };
        const mem = memory(backend, backendName);
        const n = l.lengths.reduce((a, c) => a + c, 0);
        const out = mem.alloc([n, l.width]);
        const dst = mem.view(out);
        dst.fill(0);
        const parts = Object.keys(inputs).map((_, i) => mem.view((inputs as Record<string, Info>)[`p${i}`]));
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
