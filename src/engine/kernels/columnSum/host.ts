import { HOST_BACKENDS, hostMemory } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { COLUMN_SUM } from './columnSum.ts';

/**
 * Σ over every row of x [..., d] per column on the CPU-memory backends: a bias gradient in one pass over
 * the rows (tfjs-wasm's sum over the leading axes transposes first). Accumulated in double.
 */
export const COLUMN_SUM_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: COLUMN_SUM,
      kernelFunc: ({ inputs, backend }) => {
        const x = inputs.x!;
        const d = x.shape[x.shape.length - 1];
        const mem = hostMemory(backend);
        const out = mem.alloc([d]);
        const values = mem.floats(x);
        const acc = new Float64Array(d);
        for (let i = 0; i < values.length; i += d) for (let j = 0; j < d; j++) acc[j] += values[i + j];
        mem.floats(out).set(acc);
        return out;
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw/).
registerKernels(HOST_BACKENDS, COLUMN_SUM_HOST);
