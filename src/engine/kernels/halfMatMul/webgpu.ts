import type * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { F16_MAX } from '../../precision/f16.ts';
import type { KernelFamily } from '../register.ts';
import { type Binding, runInPlace } from '../webgpu/inPlace.ts';
import type { Uniform } from '../webgpu/program.ts';
import { HALF_MAT_MUL, HALF_MAT_MUL_GRADIENT, type HalfMatMulAttrs, productDims } from './op.ts';
import { LANES, TILE, UNIFORMS, halfMatMulCode, variantKey } from './wgsl.ts';

const int = (x: number): Uniform => ({ type: 'int32', data: [x] });

/**
 * The product on WebGPU (wgsl.ts), into a fresh float32 tensor. `half` false runs the same kernel in
 * f32, where the device has no shader-f16: what checks its indexing on SwiftShader.
 */
export function runHalfMatMul(
  backend: unknown,
  inputs: { a: tf.TensorInfo; b: tf.TensorInfo; bias?: tf.TensorInfo },
  t: HalfMatMulAttrs,
  half: boolean,
): tf.TensorInfo {
  const gpu = backend as WebGPUBackend;
  const [batch, M, K, N] = productDims(inputs.a.shape, inputs.b.shape, t)!;
  const out = gpu.makeTensorInfo(inputs.a.shape.length === 3 ? [batch, M, N] : [M, N], 'float32');
  if (batch * M * N === 0) return out;
  const v = { ...t, bias: !!inputs.bias, half };
  const { enables, code } = halfMatMulCode(v);
  const bindings: Binding[] = [
    { name: 'A', t: inputs.a },
    { name: 'B', t: inputs.b },
    ...(inputs.bias ? [{ name: 'BIAS', t: inputs.bias }] : []),
    { name: 'C', t: out, write: true },
  ];
  const [tilesM, tilesN] = [Math.ceil(M / TILE), Math.ceil(N / TILE)];
  const uniforms = [
    int(M),
    int(K),
    int(N),
    int(M * K),
    int(K * N),
    int(tilesM),
    int(tilesN),
    { type: 'float32' as const, data: [half ? F16_MAX : 3.4028234663852886e38] },
  ];
  runInPlace(gpu, variantKey(v), code, bindings, UNIFORMS, uniforms, batch * tilesM * tilesN, LANES, enables);
  return out;
}

/**
 * The product's kernel and its gradient: in f16 (`half`) where the device has shader-f16, registered then
 * (precision/registerHalf.ts); in f32 only by the checks that run the half-precision step where it has
 * none (testing/halfStepParity.ts).
 */
export function halfMatMulFamily(half: boolean): KernelFamily {
  return {
    kernels: [
      {
        kernelName: HALF_MAT_MUL,
        kernelFunc: ({ inputs, backend, attrs }) =>
          runHalfMatMul(backend, inputs as { a: tf.TensorInfo; b: tf.TensorInfo; bias?: tf.TensorInfo }, attrs as unknown as HalfMatMulAttrs, half),
      },
    ],
    gradients: [HALF_MAT_MUL_GRADIENT],
  };
}
