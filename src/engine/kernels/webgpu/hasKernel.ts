import * as tf from '@tensorflow/tfjs';

/** Whether the active backend has `kernel` registered: the fused WebGPU paths are, once WebGPU runs. */
export const hasKernel = (kernel: string): boolean => tf.getKernel(kernel, tf.getBackend()) !== undefined;
