import { MatMulPeer, createMatMulLink } from '../engine/kernels/matmulPeer.ts';
import { setMatMulPeer } from '../engine/kernels/splitProduct.ts';
import type { BackendInfo } from './backendInfo.ts';
import { countPeerProduct } from './counters.ts';

let started = false;

/**
 * Starts the matmul peer worker on WASM where a second core and shared memory exist (once; it stays).
 * Big products are split with it from the moment it reports ready; until then, or if it fails, the
 * engine multiplies alone. `wanted: false` (init option) keeps it off.
 */
export function startMatMulPeer(backend: BackendInfo, wanted = true): void {
  if (started || !wanted || backend.backend !== 'wasm' || (navigator.hardwareConcurrency || 1) < 2 || typeof Worker === 'undefined') return;
  const link = createMatMulLink();
  if (!link) return;
  started = true;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./matmul.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return;
  }
  worker.addEventListener('message', (e: MessageEvent<{ ready?: boolean }>) => {
    if (e.data.ready) setMatMulPeer(new MatMulPeer(link), countPeerProduct);
  });
  worker.addEventListener('error', () => setMatMulPeer(null));
  worker.postMessage(link);
}
