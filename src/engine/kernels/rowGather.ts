import * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, hostMemory } from './hostMemory.ts';

/**
 * tf.gather(table, ids) along axis 0, as one row copy per id on the CPU-memory backends. tfjs-wasm's
 * GatherV2 costs about as much as copying the whole table (12 ms for 6,000 rows of the 50,257-row
 * embedding: as long as the batch's largest product); this costs what the rows cost. Other backends
 * keep tf.gather, the reference.
 */
export function gatherTableRows(table: tf.Tensor2D, ids: tf.Tensor): tf.Tensor {
  if (!(HOST_BACKENDS as readonly string[]).includes(tf.getBackend())) return tf.gather(table, ids);
  ensureRegistered();
  return tf.engine().runKernel(KERNEL, { table, ids: ids.dtype === 'int32' ? ids : tf.cast(ids, 'int32') }, {}) as tf.Tensor;
}

const KERNEL = 'EormGatherRows';
let registered = false;

function ensureRegistered(): void {
  if (registered) return;
  registered = true;
  for (const backendName of HOST_BACKENDS) {
    tf.registerKernel({
      kernelName: KERNEL,
      backendName,
      kernelFunc: ({ inputs, backend }) => {
        const { table, ids } = inputs as { table: tf.TensorInfo; ids: tf.TensorInfo };
        const [rows, width] = table.shape;
        const mem = hostMemory(backend, backendName);
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
    });
  }
}
