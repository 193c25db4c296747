import * as tf from '@tensorflow/tfjs';

const watched = new WeakSet<GPUDevice>();

function activeDevice(): GPUDevice | null {
  if (tf.getBackend() !== 'webgpu') return null;
  return (tf.backend() as unknown as { device?: GPUDevice }).device ?? null;
}

/** Calls `onLost` with a plain sentence once the active WebGPU device is lost (driver reset, GPU removed, destroyed). */
export function watchDevice(onLost: (message: string) => void): void {
  const device = activeDevice();
  if (!device || watched.has(device)) return;
  watched.add(device);
  void device.lost.then((info) => {
    const detail = info.message ? `: ${info.message}` : '';
    onLost(`The GPU stopped working for this page (WebGPU device lost, reason "${info.reason ?? 'unknown'}"${detail}).`);
  });
}

/** For browser tests: loses the device as a driver reset would. */
export function destroyDevice(): void {
  const device = activeDevice();
  if (!device) throw new Error('The engine is not on WebGPU: there is no device to destroy.');
  device.destroy();
}
