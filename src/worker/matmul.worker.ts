/**
 * The matmul peer (see src/engine/kernels/matmulPeer.ts): a second tfjs-wasm engine on another core
 * that multiplies the lower rows of the engine worker's big products during training. It blocks on
 * shared memory between jobs, so it answers no message after the first (the link).
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { type MatMulLink, serveMatMuls } from '../engine/kernels/matmulPeer.ts';
import { peerProduct } from '../engine/kernels/splitProduct.ts';
import { configureWasm } from './wasmSetup.ts';

self.addEventListener(
  'message',
  async (event: MessageEvent<MatMulLink>) => {
    try {
      configureWasm(1);
      if (!(await tf.setBackend('wasm'))) throw new Error('the WASM backend did not start in the matmul worker');
    } catch (e) {
      self.postMessage({ error: e instanceof Error ? e.message : String(e) });
      return;
    }
    self.postMessage({ ready: true });
    serveMatMuls(event.data, peerProduct);
  },
  { once: true },
);
