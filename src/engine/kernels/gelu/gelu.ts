import * as tf from '@tensorflow/tfjs';

/**
 * Exact (erf) GELU, as PyTorch's default (the tanh approximation is off by up to 4.7e-4): the op's kernel
 * names and gradient, shared by its implementations (webgpu.ts, host.ts with wasm.ts's SIMD loops), and
 * its tfjs composition, the reference they are tested against (parity.ts) and the fallback.
 */
export const GELU = 'EormGelu';
export const GELU_GRAD = 'EormGeluGrad';

/** The gradient on every backend with the kernels: GELU_GRAD(dy, x). */
export const GELU_GRADIENT: tf.GradConfig = {
  kernelName: GELU,
  inputsToSave: ['x'],
  gradFunc: (dy, [x]) => ({ x: () => tf.engine().runKernel(GELU_GRAD, { dy: dy as tf.Tensor, x }) as tf.Tensor }),
};

/** GELU by the kernel registered for the active backend. */
export function fusedGelu(x: tf.Tensor): tf.Tensor {
  return tf.engine().runKernel(GELU, { x }) as tf.Tensor;
}

/** The plain tfjs GELU: the reference the fused kernels are tested against, and the path elsewhere. */
export function composedGelu(x: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2)))));
}

/** GELU by the kernel where the backend has one (its profile's fused.gelu), else by the composition. */
export function gelu(x: tf.Tensor, kernel: boolean): tf.Tensor {
  return kernel ? fusedGelu(x) : composedGelu(x);
}
