import * as tf from '@tensorflow/tfjs';

/**
 * LayerNorm over the last axis: biased variance, eps inside the sqrt (PyTorch default eps 1e-5). The op's
 * three kernel names, shared by its implementations (webgpu.ts, host.ts with wasm.ts's SIMD forward), the
 * call that runs them, and the tfjs composition: the reference they are tested against (parity.ts) and
 * the fallback.
 */
export const LAYER_NORM = 'EormLayerNorm';
export const GRAD_X = 'EormLayerNormGradX';
export const GRAD_WEIGHT_BIAS = 'EormLayerNormGradWeightBias';

/** y = (x − mean) / √(var + eps) · weight + bias, over the last axis (biased variance, as PyTorch). */
export function fusedLayerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps: number): tf.Tensor {
  // customGrad: its gradient function returns every input's gradient from one call, so dweight and
  // dbias can come from one two-output dispatch (a registered gradient computes each input's apart).
  const f = tf.customGrad(((x: tf.Tensor, w: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
    save([x, w]);
    return {
      value: tf.engine().runKernel(LAYER_NORM, { x, weight: w, bias: b }, { eps }) as tf.Tensor,
      gradFunc: (dy: tf.Tensor, [xs, ws]: tf.Tensor[]) => {
        const [dx, stats] = tf.engine().runKernel(GRAD_X, { dy, x: xs, weight: ws }, { eps }) as tf.Tensor[];
        const [dw, db] = tf.engine().runKernel(GRAD_WEIGHT_BIAS, { dy, x: xs, stats }, {}) as tf.Tensor[];
        stats.dispose();
        return [dx, dw, db];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(x, weight, bias);
}

/** The plain tfjs LayerNorm: the reference the fused kernels are tested against, and the path elsewhere. */
export function composedLayerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
  return tf.tidy(() => {
    const centered = tf.sub(x, tf.mean(x, -1, true));
    const variance = tf.mean(tf.square(centered), -1, true);
    return tf.add(tf.mul(tf.mul(centered, tf.rsqrt(tf.add(variance, eps))), weight), bias);
  });
}

/** LayerNorm by the kernels where the backend has them (its profile's fused.layerNorm), else by the composition. */
export function layerNorm(x: tf.Tensor, weight: tf.Tensor, bias: tf.Tensor, eps: number, kernel: boolean): tf.Tensor {
  return kernel ? fusedLayerNorm(x, weight, bias, eps) : composedLayerNorm(x, weight, bias, eps);
}
