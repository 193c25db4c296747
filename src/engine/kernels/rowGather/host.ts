import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';

/**
 * tf.gather(table, ids) along axis 0 as one row copy per id, on the CPU-memory backends (cpu, wasm).
 * tfjs-wasm's GatherV2 costs about as much as copying the whole table; this costs what the rows cost.
 * tf.gather stays the reference and the path elsewhere (ops.gatherTableRows chooses).
 */
export function hostGatherRows(table: tf.Tensor2D, ids: tf.Tensor): tf.Tensor {
  return tf.engine().runKernel(KERNEL, { table, ids: ids.dtype === 'int32' ? ids : tf.cast(ids, 'int32') }, {}) as tf.Tensor;
}

const KERNEL = 'EormGatherRows';

export const GATHER_ROWS_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: KERNEL,
      kernelFunc: ({ inputs, backend }) => {
        const { table, ids } = inputs as { table: tf.TensorInfo; ids: tf.TensorInfo };
        const [rows, width] = table.shape;
        const mem = hostMemory(backend);
        const bad = mem.ints(ids).findIndex((r) => !(r >= 0 && r < rows));
        if (bad >= 0) throw new Error(`row index ${mem.ints(ids)[bad]} (position ${bad}) is outside the table's ${rows} rows`);
        const out = mem.alloc([...ids.shape, width]);
        const src = mem.floats(table);
        const idx = mem.ints(ids);
        const dst = mem.floats(out);
        for (let i = 0; i < idx.length; i++) {
          const s = idx[i] * width;
          const o = i * width;
          for (let j = 0; j < width; j++) dst[o + j] = src[s + j];
        }
        return out;
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw/).
registerKernels(HOST_BACKENDS, GATHER_ROWS_HOST);
