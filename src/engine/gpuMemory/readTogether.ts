import * as tf from '@tensorflow/tfjs';

/**
 * Reads float32 tensors back to the CPU as they are when called: the copies are taken synchronously,
 * only the read-back is awaited, so the caller may go on changing the tensors (training) meanwhile.
 *
 * `together` (the backend profile's readTogether: WebGPU): the copy is one concatenation and the read
 * one buffer map, instead of a map per tensor, each ending a GPU pass; the arrays handed back are then
 * views into that one read. Where the whole would not fit the device's binding limit, or there is no
 * device (the backends that keep tensors in CPU memory, where a read is a copy anyway), each tensor is
 * copied and read on its own.
 */
export async function readTogether(tensors: readonly tf.Tensor[], together = true): Promise<Float32Array[]> {
  for (const t of tensors) if (t.dtype !== 'float32') throw new Error(`readTogether reads float32 tensors, not ${t.dtype}`);
  const total = tensors.reduce((n, t) => n + t.size, 0);
  const limit = together ? bindingLimit() : 0;
  if (tensors.length > 1 && limit > 0 && total * 4 <= limit) {
    const packed = tf.tidy(() => tf.concat(tensors.map((t) => tf.reshape(t, [-1]))));
    try {
      const flat = (await packed.data()) as Float32Array;
      let at = 0;
      return tensors.map((t) => flat.subarray(at, (at += t.size)));
    } finally {
      packed.dispose();
    }
  }
  const copies = tf.tidy(() => tensors.map((t) => tf.mul(t, 1)));
  try {
    return (await Promise.all(copies.map((c) => c.data()))) as Float32Array[];
  } finally {
    tf.dispose(copies);
  }
}

/** The largest buffer a WebGPU kernel may bind (the concatenation's output is bound whole). */
function bindingLimit(): number {
  const device = (tf.backend() as unknown as { device?: GPUDevice }).device;
  return device ? Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize) : 0;
}
