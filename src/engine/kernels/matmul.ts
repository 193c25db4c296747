import * as tf from '@tensorflow/tfjs';
import { hostMemory } from './hostMemory.ts';
import { swapLast } from './hostTranspose.ts';
import { type KernelFamily, registerKernels } from './register.ts';

/**
 * Matrix product of rank-2 or rank-3 tensors, op(a)·op(b) with op = transpose of the last two axes
 * when asked, as plain 2-D products: the same maths as tf.matMul, which stays the reference.
 * tfjs-wasm sends a product to XNNPACK only when it is one plain 2-D product (no batch, no
 * transpose); anything else runs a scalar loop about 10× slower. So the transposes become explicit
 * ones (kernels/hostTranspose.ts), a batch becomes one plain product per slice, and the gradient is written with
 * this same op, so the backward products take the fast path too. The profile's `slicedProducts`
 * says where this pays (ops.matMul chooses).
 */
export function slicedMatMul(a: tf.Tensor, b: tf.Tensor, transposeA = false, transposeB = false): tf.Tensor {
  if (tinyProduct(a, b, transposeA)) return tf.matMul(a, b, transposeA, transposeB);
  // With no gradient being recorded (scoring), the custom-gradient wrapper is only overhead.
  if (!tapeOn()) return plainProduct(transposeA ? swapLast(a) : a, transposeB ? swapLast(b) : b);
  return fastMatMul(a, b, transposeA, transposeB);
}

/** tfjs records a tape only inside tf.grad / variableGrads (gradientDepth > 0). */
const tapeOn = () => (tf.engine().state as unknown as { gradientDepth: number }).gradientDepth > 0;

/** Per-slice products below this many multiply-adds cost more in kernel calls than the scalar loop does. */
const SMALL_SLICE = 4096;

function tinyProduct(a: tf.Tensor, b: tf.Tensor, transposeA: boolean): boolean {
  const r = a.rank;
  const m = transposeA ? a.shape[r - 1] : a.shape[r - 2];
  const k = transposeA ? a.shape[r - 2] : a.shape[r - 1];
  const n = b.size / ((r === 3 ? b.shape[0] : 1) * k);
  return m * k * n < SMALL_SLICE;
}


/** op(a)·op(b) as explicit transposes plus plain products; dA and dB use the same op (see BatchMatMul_grad). */
function fastMatMul(a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean): tf.Tensor {
  const op = tf.customGrad(((x: tf.Tensor, y: tf.Tensor, save: tf.GradSaveFunc) => {
    save([x, y]);
    return {
      value: plainProduct(transposeA ? swapLast(x) : x, transposeB ? swapLast(y) : y),
      gradFunc: (dy: tf.Tensor, [sx, sy]: tf.Tensor[]) => {
        if (!transposeA && !transposeB) return [slicedMatMul(dy, sy, false, true), slicedMatMul(sx, dy, true, false)];
        if (!transposeA && transposeB) return [slicedMatMul(dy, sy, false, false), slicedMatMul(dy, sx, true, false)];
        if (transposeA && !transposeB) return [slicedMatMul(sy, dy, false, true), slicedMatMul(sx, dy, false, false)];
        return [slicedMatMul(sy, dy, true, true), slicedMatMul(dy, sx, true, true)];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return op(a, b);
}

/** a [.., M, K] · b [.., K, N] with no transposes: one XNNPACK product per batch slice. */
function plainProduct(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  if (a.rank === 2) return tf.matMul(a, b);
  if (a.shape[0] === 1) return tf.expandDims(tf.matMul(tf.squeeze(a, [0]), tf.squeeze(b, [0])), 0);
  const as = slices(a);
  const bs = slices(b);
  return tf.stack(as.map((x, i) => tf.matMul(x, bs[i])));
}

/**
 * tf.unstack on WASM slices through readSync, which copies the whole tensor once per slice (quadratic
 * in the slices). This kernel copies each slice once.
 */
function slices(x: tf.Tensor): tf.Tensor[] {
  return tf.engine().runKernel(UNSTACK, { x }, {}) as unknown as tf.Tensor[];
}

const UNSTACK = 'EormUnstack';

export const UNSTACK_WASM: KernelFamily = {
  kernels: [
    {
      kernelName: UNSTACK,
      kernelFunc: ({ inputs, backend }) => {
        const { x } = inputs as { x: tf.TensorInfo };
        const [n, ...rest] = x.shape;
        const size = rest.reduce((a, b) => a * b, 1);
        const mem = hostMemory(backend, 'wasm');
        const outs = Array.from({ length: n }, () => mem.alloc(rest));
        const src = mem.floats(x);
        outs.forEach((o, i) => mem.floats(o).set(src.subarray(i * size, (i + 1) * size)));
        return outs;
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw.ts).
registerKernels(['wasm'], UNSTACK_WASM);
