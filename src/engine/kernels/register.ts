import * as tf from '@tensorflow/tfjs';

/**
 * A family of this project's kernels: tfjs kernel configs without the backend (registerKernels names
 * it) and the gradients of those that are differentiated. Each kernel file exports its family. WebGPU's
 * are registered together when WebGPU starts (registerWebGpu.ts); the host kernels (cpu, wasm) need
 * no device, so each host kernel file registers its family when it loads.
 */
export interface KernelFamily {
  kernels: Array<Omit<tf.KernelConfig, 'backendName'>>;
  gradients?: tf.GradConfig[];
}

/**
 * Registers `family` for each of `backends`. A kernel or gradient already registered is left as it is,
 * so registering again (a second start of the backend) changes nothing.
 */
export function registerKernels(backends: readonly string[], family: KernelFamily): void {
  for (const backendName of backends) {
    for (const k of family.kernels) if (!tf.getKernel(k.kernelName, backendName)) tf.registerKernel({ ...k, backendName });
  }
  for (const g of family.gradients ?? []) if (!tf.getGradient(g.kernelName)) tf.registerGradient(g);
}
