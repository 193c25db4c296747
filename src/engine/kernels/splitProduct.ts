import * as tf from '@tensorflow/tfjs';
import { hostMemory } from './hostMemory.ts';
import type { MatMulPeer } from './matmulPeer.ts';

/**
 * A plain 2-D product on WASM shared with the matmul peer thread (see matmulPeer.ts): the peer takes
 * the lower half of A's rows while this thread multiplies the upper half. Same numbers as one
 * tf.matMul; null (the caller multiplies alone) when no peer is installed, it is paused, or the
 * product is too small to be worth the hand-over.
 */
export function splitProduct(a: tf.Tensor, b: tf.Tensor): tf.Tensor | null {
  const p = peer;
  if (p === null || paused > 0 || !p.alive || a.rank !== 2 || tf.getBackend() !== 'wasm') return null;
  const [m, k] = a.shape as [number, number];
  const n = b.shape[1]!;
  if (m < 2 * MIN_ROWS || m * k * n < MIN_SPLIT_MACS) return null;
  const mine = Math.ceil(m / 2);
  const mem = hostMemory(tf.backend(), 'wasm');
  if (!p.start(mem.floats(a).subarray(mine * k), mem.floats(b), m - mine, k, n)) return null;
  let upper: tf.Tensor | null = null;
  let lower: Float32Array | null = null;
  try {
    upper = tf.tidy(() => tf.matMul(tf.slice(a, [0, 0], [mine, k]), b));
  } finally {
    // Always collect the job, even when this thread's half threw: the peer is then free again.
    lower = p.finish();
  }
  if (lower === null) return tf.tidy(() => tf.concat([upper!, tf.matMul(tf.slice(a, [mine, 0], [m - mine, k]), b)]));
  onSplit();
  const out = tf.engine().runKernel(JOIN_ROWS, { upper }, { lower } as unknown as tf.NamedAttrMap) as tf.Tensor;
  upper.dispose();
  return out;
}

/** Below this many multiply-adds (about 0.1 ms on one core) the hand-over costs more than half the product saves. */
const MIN_SPLIT_MACS = 2 ** 21;
const MIN_ROWS = 16;

let peer: MatMulPeer | null = null;
let paused = 0;
let onSplit: () => void = () => {};

/** Installs (or, with null, removes) the peer that big products on WASM share their rows with. */
export function setMatMulPeer(p: MatMulPeer | null, countSplit: () => void = () => {}): void {
  peer = p;
  onSplit = countSplit;
  registerJoinRows();
}

/** Runs fn with every product on this thread alone: while scoring peers keep the other cores busy. */
export async function withoutMatMulPeer<T>(fn: () => Promise<T>): Promise<T> {
  paused++;
  try {
    return await fn();
  } finally {
    paused--;
  }
}

const JOIN_ROWS = 'EormJoinRows';
let joinRegistered = false;

/** [upper; lower] as one tensor: upper from the heap, lower from the peer's shared memory, one copy each. */
function registerJoinRows(): void {
  if (joinRegistered) return;
  joinRegistered = true;
  tf.registerKernel({
    kernelName: JOIN_ROWS,
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const upper = inputs.upper as tf.TensorInfo;
      const lower = (attrs as unknown as { lower: Float32Array }).lower;
      const [rows, n] = upper.shape;
      const mem = hostMemory(backend, 'wasm');
      const out = mem.alloc([rows + lower.length / n, n]);
      const o = mem.floats(out);
      o.set(mem.floats(upper));
      o.set(lower, rows * n);
      return out;
    },
  });
}

/** The peer thread's side of a split: one XNNPACK product on its own tfjs-wasm, written into shared memory. */
export function peerProduct(a: Float32Array, b: Float32Array, m: number, k: number, n: number, out: Float32Array): void {
  const c = tf.tidy(() => tf.matMul(tf.tensor2d(a, [m, k]), tf.tensor2d(b, [k, n])));
  try {
    out.set(tf.getBackend() === 'wasm' ? hostMemory(tf.backend(), 'wasm').floats(c) : c.dataSync());
  } finally {
    c.dispose();
  }
}
